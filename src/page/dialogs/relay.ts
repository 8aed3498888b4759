/**
 * The isolated-world half, installed at document_start beside the hook (hook.ts). The panel arms
 * it for the length of one agent action; only then does it answer the hook's asks. An armed relay
 * gives the action's answer to the first dialog the action itself caused in the frame it acts in
 * (see attribution.ts), dismisses every other one — a dialog from a timer, another script or the
 * person while the action runs is never given an answer meant for something else — and keeps
 * what each said for the action's result. Unarmed, every dialog is the user's and goes to the
 * browser.
 *
 * An arming belongs to one call and dies with it: the panel disarms when the call ends, and the
 * relay holds a line to the panel for as long as it is armed (`hold`), so a panel that goes away
 * mid-action — closed, reloaded, crashed — disarms it at once. A time limit backs both up.
 */
import { recordAsker } from '../listener-channel';
import { markDispatches, type DispatchMark } from './attribution';
import {
  RELAY_KEY,
  ASK_EVENT,
  DIALOG_TEXT_LIMIT,
  LEAVE_EVENT,
  LEAVE_REPLY_EVENT,
  MAX_DIALOG_RECORDS,
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

/** A line to the panel that armed the relay is lost unnoticed only if the browser itself hangs. */
export const ARM_TTL_MS = 90_000;

interface Armed {
  /** Numbers the action for the page's timer watch, which must not learn the token. */
  id: number;
  answer: DialogAnswer | null;
  /** The action runs in this frame (armed by its own command), so its dispatches are its own. */
  acting: boolean;
  until: number;
  records: DialogRecord[];
}

export interface ArmOptions {
  /** Armed by the action's own command in the frame it acts in. */
  acting?: boolean;
}

export interface DialogRelay {
  /** Arms the relay for one action; `answer` only for the frame the action runs in. */
  arm(token: string, answer: DialogAnswer | null, options?: ArmOptions): boolean;
  /** What the action's dialogs were, and disarms. */
  collect(token: string): DialogRecord[];
  /** Whether the browser showed one of the user's own dialogs in this document at or after `time`. */
  nativeSince(time: number): boolean;
  /** Asks the hook about leaving; undefined when no hook answered. */
  leave(mode: LeaveMode): LeaveReply | undefined;
  /**
   * Dispatches an event of Tabwright's own (a question to the page's record), which is no action's:
   * it neither raises the mark nor keeps it up for the microtasks that follow.
   */
  dispatchUnmarked(target: EventTarget, event: Event): boolean;
}

/**
 * Keeps a line to the panel that armed `token` open, and calls `gone` when it closes (the call
 * ended, or the panel went away). The platform implements it with a runtime port.
 */
export type ArmingHold = (token: string, gone: () => void) => void;

export interface RelayOptions {
  now?: () => number;
  /**
   * Hears of the browser's own dialogs opening and closing in this document (the platform passes
   * them to the panel). Any page script can send the same event, so the panel takes it as a hint.
   */
  onNative?: (dialog: NativeDialog) => void;
  hold?: ArmingHold;
  /** Which dispatches are the action's own; the isolated world's by default. */
  mark?: DispatchMark;
}

/** The relay installed in this isolated world's `scope` (the frame's window), if any. */
export function installedRelay(scope: object | null): DialogRelay | undefined {
  return scope ? (scope as Record<string, DialogRelay | undefined>)[RELAY_KEY] : undefined;
}

export function createDialogRelay(doc: Document, options: RelayOptions = {}): DialogRelay {
  const now = options.now ?? Date.now;
  const mark = options.mark ?? markDispatches((doc.defaultView ?? globalThis) as typeof globalThis);
  const armings = new Map<string, Armed>();
  let nativeOpenedAt = -Infinity;

  const live = (): Armed[] => {
    for (const [token, armed] of armings) if (now() > armed.until) armings.delete(token);
    return [...armings.values()];
  };

  // The relay's own events are no action's: sent unmarked, they do not make the next ask look like one.
  const reply = (value: DialogReply) =>
    mark.dispatchUnmarked(doc, new CustomEvent(REPLY_EVENT, { detail: JSON.stringify(value) }));

  // The page's own world follows the timers an action's events set; the mark says when those run.
  const pageRecord = () => {
    const view = doc.defaultView;
    return view ? recordAsker(doc, view, mark.dispatchUnmarked) : undefined;
  };
  let told = 0;
  mark.observe((active) => {
    const acting = active ? live().filter((a) => a.acting) : [];
    const id = acting.length === 1 ? acting[0]!.id : 0;
    if (id !== told && pageRecord()?.(doc, `actions:on:${id}`)) told = id;
  });
  const causedBy = (action: Armed) => mark.active || pageRecord()?.(doc, `actions:timer:${action.id}`) === true;
  let lastId = 0;

  const record = (armed: Armed, request: DialogAsk, answer: DialogAnswer | null, attributed: boolean) => {
    if (armed.records.length >= MAX_DIALOG_RECORDS) return;
    armed.records.push({
      kind: request.kind,
      // The hook cuts what it sends; a page that sends its own asks is cut here.
      message: String(request.message).slice(0, DIALOG_TEXT_LIMIT),
      answer,
      url: doc.location?.href ?? '',
      attributed,
    });
  };

  doc.addEventListener(ASK_EVENT, (event) => {
    const request = parseJson<DialogAsk>((event as CustomEvent).detail);
    const armed = live();
    if (!request || !armed.length) return reply({ mode: 'native' });
    const acting = armed.filter((a) => a.acting);
    const owner = acting.length === 1 && causedBy(acting[0]!) ? acting[0]! : undefined;
    if (!owner) {
      // Not the action's doing, or not one action's alone: dismissed, and told to every action armed here.
      for (const a of armed) record(a, request, null, false);
      return reply({ mode: 'answer', accept: false, text: null });
    }
    const answer = owner.answer;
    owner.answer = null; // one answer, for the first dialog the action caused; the rest are dismissed
    record(owner, request, answer, true);
    if (!answer) return reply({ mode: 'answer', accept: false, text: null });
    const defaultText = typeof request.defaultText === 'string' ? request.defaultText : '';
    const text = request.kind === 'prompt' ? (answer.promptText ?? defaultText) : null;
    reply({ mode: 'answer', accept: answer.accept, text });
  });

  doc.addEventListener(NATIVE_EVENT, (event) => {
    const dialog = parseJson<NativeDialog>((event as CustomEvent).detail);
    if (!dialog || (dialog.state !== 'open' && dialog.state !== 'closed')) return;
    if (!['alert', 'confirm', 'prompt'].includes(dialog.kind)) return;
    if (dialog.state === 'open') nativeOpenedAt = now();
    options.onNative?.({ state: dialog.state, kind: dialog.kind });
  });

  return {
    arm(token, answer, { acting = false } = {}) {
      const known = armings.get(token);
      if (known) {
        // The action's own command arms over the dismissal its panel set up first: one arming, one record.
        known.answer = answer;
        known.acting ||= acting;
        return true;
      }
      armings.set(token, { id: ++lastId, answer, acting, until: now() + ARM_TTL_MS, records: [] });
      options.hold?.(token, () => armings.delete(token));
      return true;
    },
    nativeSince(time) {
      return nativeOpenedAt >= time;
    },
    collect(token) {
      const armed = armings.get(token);
      armings.delete(token);
      return armed?.records ?? [];
    },
    leave(mode) {
      let answer: string | undefined;
      const take = (event: Event) => (answer = (event as CustomEvent).detail as string);
      doc.addEventListener(LEAVE_REPLY_EVENT, take);
      try {
        mark.dispatchUnmarked(doc, new CustomEvent(LEAVE_EVENT, { detail: mode }));
      } finally {
        doc.removeEventListener(LEAVE_REPLY_EVENT, take);
      }
      return parseJson<LeaveReply>(answer);
    },
    dispatchUnmarked: mark.dispatchUnmarked,
  };
}
