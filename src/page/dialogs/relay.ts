/**
 * The isolated-world half, installed at document_start beside the hook (hook.ts). The panel arms
 * it for the length of one agent action; only then does it answer the hook's asks. An armed relay
 * gives the action's answer to the first dialog of the frame it was armed with, dismisses every
 * other one, and keeps what each said for the action's result. Unarmed (no action running, or the
 * arming ran out), every dialog is the user's and goes to the browser.
 */
import {
  RELAY_KEY,
  ASK_EVENT,
  LEAVE_EVENT,
  LEAVE_REPLY_EVENT,
  NATIVE_EVENT,
  REPLY_EVENT,
  parseJson,
  type DialogAnswer,
  type DialogAsk,
  type DialogRecord,
  type DialogReply,
  type LeaveMode,
  type LeaveReply,
  type NativeDialog,
} from './channel';

/** A panel that died mid-action must not leave the user's dialogs answered: arming runs out. */
export const ARM_TTL_MS = 90_000;
const MAX_RECORDS = 10;

interface Armed {
  token: string;
  answer: DialogAnswer | null;
  until: number;
  records: DialogRecord[];
}

export interface DialogRelay {
  /** Arms the relay for one action; `answer` only for the frame the action runs in. */
  arm(token: string, answer: DialogAnswer | null): boolean;
  /** What the action's dialogs were, and disarms. */
  collect(token: string): DialogRecord[];
  /** Whether the browser showed one of the user's own dialogs in this document at or after `time`. */
  nativeSince(time: number): boolean;
  /** Asks the hook about leaving; undefined when no hook answered. */
  leave(mode: LeaveMode): LeaveReply | undefined;
}

/** The relay installed in this isolated world's `scope` (the frame's window), if any. */
export function installedRelay(scope: object | null): DialogRelay | undefined {
  return scope ? (scope as Record<string, DialogRelay | undefined>)[RELAY_KEY] : undefined;
}

/**
 * `onNative` hears of the browser's own dialogs opening and closing in this document (the platform
 * passes them to the panel). Any page script can send the same event, so the panel takes it as a
 * hint to check, never as a fact.
 */
export function createDialogRelay(
  doc: Document,
  now: () => number = Date.now,
  onNative: (dialog: NativeDialog) => void = () => undefined,
): DialogRelay {
  let armed: Armed | undefined;
  let nativeOpenedAt = -Infinity;
  const current = () => (armed && now() <= armed.until ? armed : undefined);

  const reply = (value: DialogReply) =>
    doc.dispatchEvent(new CustomEvent(REPLY_EVENT, { detail: JSON.stringify(value) }));

  doc.addEventListener(ASK_EVENT, (event) => {
    const request = parseJson<DialogAsk>((event as CustomEvent).detail);
    const action = current();
    if (!request || !action) return reply({ mode: 'native' });
    const answer = action.answer;
    action.answer = null; // one answer, for the first dialog; the rest are dismissed and reported
    if (action.records.length < MAX_RECORDS) {
      action.records.push({
        kind: request.kind,
        message: String(request.message),
        answer,
        url: doc.location?.href ?? '',
      });
    }
    if (!answer) return reply({ mode: 'answer', accept: false, text: null });
    const text = request.kind === 'prompt' ? (answer.promptText ?? request.defaultText ?? '') : null;
    reply({ mode: 'answer', accept: answer.accept, text });
  });

  doc.addEventListener(NATIVE_EVENT, (event) => {
    const dialog = parseJson<NativeDialog>((event as CustomEvent).detail);
    if (!dialog || (dialog.state !== 'open' && dialog.state !== 'closed')) return;
    if (!['alert', 'confirm', 'prompt'].includes(dialog.kind)) return;
    if (dialog.state === 'open') nativeOpenedAt = now();
    onNative({ state: dialog.state, kind: dialog.kind });
  });

  return {
    arm(token, answer) {
      armed = { token, answer, until: now() + ARM_TTL_MS, records: [] };
      return true;
    },
    nativeSince(time) {
      return nativeOpenedAt >= time;
    },
    collect(token) {
      if (!armed || armed.token !== token) return [];
      const records = armed.records;
      armed = undefined;
      return records;
    },
    leave(mode) {
      let answer: string | undefined;
      const take = (event: Event) => (answer = (event as CustomEvent).detail as string);
      doc.addEventListener(LEAVE_REPLY_EVENT, take);
      try {
        doc.dispatchEvent(new CustomEvent(LEAVE_EVENT, { detail: mode }));
      } finally {
        doc.removeEventListener(LEAVE_REPLY_EVENT, take);
      }
      return parseJson<LeaveReply>(answer);
    },
  };
}
