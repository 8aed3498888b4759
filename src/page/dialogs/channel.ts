/**
 * The two content scripts of a document talk through DOM events, the one thing both worlds share.
 * The main-world hook asks; the isolated-world relay answers, synchronously, inside the same
 * dispatch. Details are JSON strings, the one kind of value that crosses worlds intact.
 */
import type { DialogAnswer } from '../protocol';

/** The isolated world's global under which the panel finds the relay. */
export const RELAY_KEY = '__tabwrightDialogRelay';

/** Hook → relay: a page script called alert, confirm or prompt. Detail: `DialogAsk`. */
export const ASK_EVENT = 'tabwright-dialog-ask';
/** Relay → hook, during the ask's dispatch only. Detail: `DialogReply`. */
export const REPLY_EVENT = 'tabwright-dialog-reply';
/**
 * Hook → relay: the browser's own dialog is about to open (`open`), or has closed (`closed`). Detail:
 * `NativeDialog`. While it is open the page's documents run nothing, the panel's scripts included.
 */
export const NATIVE_EVENT = 'tabwright-dialog-native';
/** Relay → hook: `check` whether leaving would prompt, `allow` the next leave without one, `forbid` again. */
export const LEAVE_EVENT = 'tabwright-leave';
/** Hook → relay, during the leave request's dispatch. Detail: `LeaveReply`. */
export const LEAVE_REPLY_EVENT = 'tabwright-leave-reply';

export type DialogKind = 'alert' | 'confirm' | 'prompt';

export type { DialogAnswer };

export interface DialogRecord {
  kind: DialogKind;
  message: string;
  /** The answer given, or null when the dialog was dismissed. */
  answer: DialogAnswer | null;
  /** The frame's address when the dialog opened. */
  url: string;
  /**
   * False when the dialog did not come from the action's own events (a timer, another script, the
   * person): it was dismissed whatever the call said. Absent in records of earlier versions.
   */
  attributed?: boolean;
}

export interface DialogAsk {
  kind: DialogKind;
  message: string;
  /** The prompt's default text. */
  defaultText?: string;
}

/** `native`: no action runs, the page gets the browser's own dialog; otherwise the value to return. */
export type DialogReply = { mode: 'native' } | { mode: 'answer'; accept: boolean; text?: string | null };

export interface NativeDialog {
  state: 'open' | 'closed';
  kind: DialogKind;
}

/**
 * Relay → panel (`chrome.runtime.connect`): a port named with this prefix and the arming's token,
 * open while the relay is armed. The panel that armed it keeps it until the call ends.
 */
export const ARMING_PORT_PREFIX = 'tabwright-armed:';

/** Relay → panel (`chrome.runtime.sendMessage`): `{ type, dialog }`, from the frame Chrome names as the sender. */
export const NATIVE_DIALOG_MESSAGE = 'tabwright/native-dialog';

export type LeaveMode = 'check' | 'allow' | 'forbid';

export interface LeaveReply {
  /** Whether a beforeunload handler would make the browser ask the user before leaving. */
  asks: boolean;
}

/** Longest text of a dialog kept for the result; the rest is cut. */
export const DIALOG_TEXT_LIMIT = 2_000;
/** Most dialogs one action records; a page that opens more cannot make its result any longer. */
export const MAX_DIALOG_RECORDS = 5;

export function parseJson<T>(detail: unknown): T | undefined {
  if (typeof detail !== 'string') return undefined;
  try {
    return JSON.parse(detail) as T;
  } catch {
    return undefined;
  }
}
