/**
 * Tabs held by the user's own dialog. While the browser shows an alert, confirm or prompt that a
 * page opened outside any agent action, that page's documents run nothing: a page command sent
 * there would wait until the user answers, however long that takes. The dialog relay says when
 * such a dialog opens and closes. Any page script can send the same words, so a tab counts as held
 * only while its top document also fails to run a trivial script within a short check.
 */
import { NATIVE_DIALOG_MESSAGE, type NativeDialog } from '../../page/dialogs/channel';
import { PageErrorCode } from '../../page/error-codes';
import { PageCommandError } from '../browser-port';
import { OpenDialogs, type OpenDialogRecord } from './open-dialogs';
import type { DialogKind } from './port';
import { heldText } from './texts';

/** What the holds need from the browser. */
export interface ResponsivenessProbe {
  /** Whether the tab's top document runs a script within `ms`. */
  answers(tabId: number, ms: number): Promise<boolean>;
}

/** How long a page that is not held takes at most to run a trivial script. */
export const HOLD_CHECK_MS = 500;

const KINDS: ReadonlySet<unknown> = new Set(['alert', 'confirm', 'prompt']);

/** The relay's message about a dialog of the browser's, or undefined for any other message. */
export function readNativeDialogMessage(message: unknown): NativeDialog | undefined {
  if (!message || typeof message !== 'object') return undefined;
  const { type, dialog } = message as { type?: unknown; dialog?: { state?: unknown; kind?: unknown } };
  if (type !== NATIVE_DIALOG_MESSAGE || !dialog || typeof dialog !== 'object') return undefined;
  if ((dialog.state !== 'open' && dialog.state !== 'closed') || !KINDS.has(dialog.kind)) return undefined;
  return { state: dialog.state, kind: dialog.kind as DialogKind };
}

export class DialogHeld extends PageCommandError {
  constructor(readonly kind: DialogKind) {
    super(heldText(kind), PageErrorCode.DialogOpen);
  }
}

interface Watcher {
  controller: AbortController;
}

export class DialogHolds {
  readonly #open = new OpenDialogs();
  readonly #watchers = new Map<number, Set<Watcher>>();
  /**
   * Tabs the relays have spoken of since the holds were made, until the record is restored: what
   * they said is newer than it.
   */
  #heard: Set<number> | undefined = new Set();

  constructor(
    private readonly probe: ResponsivenessProbe,
    private readonly checkMs = HOLD_CHECK_MS,
  ) {}

  opened(tabId: number, frameId: number, kind: DialogKind, documentId?: string): void {
    this.#heard?.add(tabId);
    this.#open.opened(tabId, frameId, kind, documentId);
    if (this.#watchers.get(tabId)?.size) void this.#abortWatchersIfHeld(tabId);
  }

  closed(tabId: number, frameId: number): void {
    this.#heard?.add(tabId);
    this.#open.closed(tabId, frameId);
  }

  /** The tab closed: none of its dialogs is open any more. */
  forget(tabId: number): void {
    this.#heard?.add(tabId);
    this.#open.forget(tabId);
  }

  /** See `OpenDialogs.committed`. */
  committed(tabId: number, documentId: string | undefined): void {
    this.#heard?.add(tabId);
    this.#open.committed(tabId, documentId);
  }

  /**
   * Dialogs that were open before these holds were made (the service worker's record), for the
   * tabs nothing has been heard of since. A record that is no longer true costs one check. Called
   * once, when the panel starts.
   */
  restore(records: readonly OpenDialogRecord[]): void {
    const heard = this.#heard;
    this.#heard = undefined;
    for (const record of records) {
      if (heard?.has(record.tabId)) continue;
      this.#open.opened(record.tabId, record.frameId, record.kind, record.documentId);
      if (this.#watchers.get(record.tabId)?.size) void this.#abortWatchersIfHeld(record.tabId);
    }
  }

  /** The kind of the dialog holding `tabId`, or undefined when the tab runs scripts. */
  async held(tabId: number): Promise<DialogKind | undefined> {
    const kind = this.#open.kindIn(tabId);
    if (!kind) return undefined;
    if (await this.probe.answers(tabId, this.checkMs)) {
      // The page runs: the report was stale (a frame that went away) or made up by a page script.
      this.#open.forget(tabId);
      return undefined;
    }
    return this.#open.kindIn(tabId);
  }

  /**
   * A signal that aborts with `DialogHeld` once a dialog of the user's holds `tabId` while a call
   * works there; `dispose` when the call ends.
   */
  watch(tabId: number): { signal: AbortSignal; dispose(): void } {
    const watcher: Watcher = { controller: new AbortController() };
    let set = this.#watchers.get(tabId);
    if (!set) this.#watchers.set(tabId, (set = new Set()));
    set.add(watcher);
    return {
      signal: watcher.controller.signal,
      dispose: () => {
        set.delete(watcher);
        if (set.size === 0 && this.#watchers.get(tabId) === set) this.#watchers.delete(tabId);
      },
    };
  }

  async #abortWatchersIfHeld(tabId: number): Promise<void> {
    const kind = await this.held(tabId);
    if (!kind) return;
    for (const watcher of this.#watchers.get(tabId) ?? []) watcher.controller.abort(new DialogHeld(kind));
  }
}
