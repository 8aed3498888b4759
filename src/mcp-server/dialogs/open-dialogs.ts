/**
 * The user's own dialogs the relays reported open, by tab and frame. The panel keeps them to know
 * which tabs a dialog may hold (holds.ts); the service worker keeps the same record in
 * session storage, so a panel opened while such a dialog is up learns of it too.
 */
import { z } from 'zod';
import type { DialogKind } from './port';

/** One open dialog, in the form session storage keeps it. */
export interface OpenDialogRecord {
  tabId: number;
  frameId: number;
  kind: DialogKind;
  /** The document that showed it, when Chrome named one. */
  documentId?: string | undefined;
}

const StoredRecord = z.object({
  tabId: z.number().int(),
  frameId: z.number().int().nonnegative(),
  kind: z.enum(['alert', 'confirm', 'prompt']),
  documentId: z.string().optional(),
});

/**
 * Frames of one tab kept at once: more than any page opens for real. Reports are forgeable, so a
 * page flooding them can only push out its own older reports, never another tab's; the top frame's
 * report is kept whatever the frames below it send.
 */
export const MAX_FRAMES_PER_TAB = 8;

/** The records in a stored value; anything malformed in it is left out, never trusted. */
export function readOpenDialogRecords(value: unknown): OpenDialogRecord[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item) => {
    const parsed = StoredRecord.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

interface OpenDialog {
  kind: DialogKind;
  documentId?: string;
}

export class OpenDialogs {
  readonly #open = new Map<number, Map<number, OpenDialog>>();

  constructor(records: readonly OpenDialogRecord[] = []) {
    for (const record of records) this.opened(record.tabId, record.frameId, record.kind, record.documentId);
  }

  opened(tabId: number, frameId: number, kind: DialogKind, documentId?: string): void {
    const frames = this.#open.get(tabId) ?? new Map<number, OpenDialog>();
    // Re-inserted, so the newest report comes last when the tab's frames are cut.
    this.#open.delete(tabId);
    this.#open.set(tabId, frames);
    frames.delete(frameId);
    frames.set(frameId, documentId ? { kind, documentId } : { kind });
    for (const older of frames.keys()) {
      if (frames.size <= MAX_FRAMES_PER_TAB) break;
      if (older !== 0) frames.delete(older);
    }
  }

  closed(tabId: number, frameId: number): void {
    const frames = this.#open.get(tabId);
    frames?.delete(frameId);
    if (frames?.size === 0) this.#open.delete(tabId);
  }

  /** None of the tab's dialogs is open any more (it closed, or it runs scripts again). */
  forget(tabId: number): void {
    this.#open.delete(tabId);
  }

  /**
   * The tab's top frame now holds document `documentId`: dialogs of the documents before it are
   * gone. Chrome may say so after the new document's own dialog was reported, which is kept.
   */
  committed(tabId: number, documentId: string | undefined): void {
    const frames = this.#open.get(tabId);
    if (!frames) return;
    for (const [frameId, dialog] of frames) {
      if (!documentId || dialog.documentId !== documentId) frames.delete(frameId);
    }
    if (frames.size === 0) this.#open.delete(tabId);
  }

  /** The kind of one dialog open in the tab, or undefined when none is. */
  kindIn(tabId: number): DialogKind | undefined {
    return this.#open.get(tabId)?.values().next().value?.kind;
  }

  /** Every open dialog: at most `MAX_FRAMES_PER_TAB` for each tab. */
  records(): OpenDialogRecord[] {
    const all: OpenDialogRecord[] = [];
    for (const [tabId, frames] of this.#open) {
      for (const [frameId, dialog] of frames) all.push({ tabId, frameId, ...dialog });
    }
    return all;
  }
}
