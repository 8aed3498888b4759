/**
 * The main-world half, installed at document_start on allowed sites before any page script runs.
 * `alert`, `confirm` and `prompt` are replaced by functions that first ask the isolated-world
 * relay (see relay.ts) whether an agent action is running in this frame: if not, the browser's own
 * dialog is shown, untouched; if so, the relay's answer is returned at once and nothing is shown.
 * The hook knows no answer before a dialog opens, so the page cannot read one ahead of time.
 * Around the browser's own dialog it tells the relay that one is open and when it has closed.
 * It also watches beforeunload, so the panel can ask whether leaving would prompt, and let one
 * leave pass without a prompt when the agent was told to accept it.
 */
import {
  ASK_EVENT,
  DIALOG_TEXT_LIMIT,
  LEAVE_EVENT,
  LEAVE_REPLY_EVENT,
  NATIVE_EVENT,
  REPLY_EVENT,
  parseJson,
  type DialogAsk,
  type DialogKind,
  type DialogReply,
  type LeaveMode,
  type NativeDialog,
} from '../dialogs/channel';

/** How long an allowed leave stays allowed: the navigation follows the request within moments. */
export const ALLOW_LEAVE_MS = 10_000;

type HookWindow = Window & typeof globalThis;

export function installDialogHook(win: HookWindow): void {
  // Taken now, before page scripts can replace them.
  const native = { alert: win.alert, confirm: win.confirm, prompt: win.prompt };
  const dispatch = win.EventTarget.prototype.dispatchEvent;
  const listen = win.EventTarget.prototype.addEventListener;
  const stopImmediate = win.Event.prototype.stopImmediatePropagation;
  const CustomEventCtor = win.CustomEvent;
  const EventCtor = win.Event;
  const stringify = win.JSON.stringify;
  const now = win.Date.now;
  const doc = win.document;

  let pendingReply: string | undefined;
  let asking = false;
  let checking = false;
  let allowLeaveUntil = 0;

  listen.call(doc, REPLY_EVENT, (event: Event) => {
    if (asking) pendingReply = (event as CustomEvent).detail as string;
  });

  function ask(request: DialogAsk): DialogReply {
    asking = true;
    pendingReply = undefined;
    try {
      dispatch.call(doc, new CustomEventCtor(ASK_EVENT, { detail: stringify(request) }));
    } finally {
      asking = false;
    }
    return parseJson<DialogReply>(pendingReply) ?? { mode: 'native' };
  }

  const tell = (dialog: NativeDialog) => {
    dispatch.call(doc, new CustomEventCtor(NATIVE_EVENT, { detail: stringify(dialog) }));
  };

  const text = (value: unknown, given: boolean) => (given ? String(value) : '').slice(0, DIALOG_TEXT_LIMIT);

  function replace(kind: DialogKind, answer: (reply: Extract<DialogReply, { mode: 'answer' }>) => unknown) {
    const original = native[kind] as (...args: unknown[]) => unknown;
    const replacement = {
      [kind](this: unknown, ...args: unknown[]) {
        const request: DialogAsk = { kind, message: text(args[0], args.length > 0) };
        if (kind === 'prompt' && args.length > 1) request.defaultText = text(args[1], true);
        const reply = ask(request);
        if (reply.mode !== 'native') return answer(reply);
        // Said before the browser's dialog blocks this document, so the panel can stop waiting on it.
        tell({ state: 'open', kind });
        try {
          return original.apply(win, args);
        } finally {
          tell({ state: 'closed', kind });
        }
      },
    }[kind];
    win[kind] = replacement as never;
  }

  replace('alert', () => undefined);
  replace('confirm', (reply) => reply.accept);
  replace('prompt', (reply) => (reply.accept ? (reply.text ?? '') : null));

  /** Runs the page's beforeunload handlers on a stand-in event and says whether one asked to stay. */
  function wouldAsk(): boolean {
    // Chrome shows the prompt only to a page the user has interacted with.
    const activation = (win.navigator as { userActivation?: { hasBeenActive: boolean } }).userActivation;
    if (activation && !activation.hasBeenActive) return false;
    const event = new EventCtor('beforeunload', { cancelable: true });
    let returnValueSet = false;
    Object.defineProperty(event, 'returnValue', {
      get: () => !event.defaultPrevented,
      set: (value: unknown) => {
        if (value !== undefined && value !== null && value !== true) returnValueSet = true;
      },
    });
    const attribute = win.onbeforeunload;
    let returned: unknown;
    checking = true;
    try {
      // The handler attribute is called by hand to see its return value, which a plain Event ignores.
      if (typeof attribute === 'function') win.onbeforeunload = null;
      dispatch.call(win, event);
      if (typeof attribute === 'function') returned = attribute.call(win, event as BeforeUnloadEvent);
    } catch {
      // A handler that throws does not ask.
    } finally {
      if (typeof attribute === 'function') win.onbeforeunload = attribute;
      checking = false;
    }
    return event.defaultPrevented || returnValueSet || (returned !== undefined && returned !== null);
  }

  // Registered before any page script, so it runs before every page handler on window.
  listen.call(
    win,
    'beforeunload',
    (event: Event) => {
      if (checking || now() > allowLeaveUntil) return;
      allowLeaveUntil = 0;
      stopImmediate.call(event);
    },
    true,
  );

  listen.call(doc, LEAVE_EVENT, (event: Event) => {
    const mode = (event as CustomEvent).detail as LeaveMode;
    if (mode === 'allow') allowLeaveUntil = now() + ALLOW_LEAVE_MS;
    if (mode === 'forbid') allowLeaveUntil = 0;
    const asks = mode === 'check' ? wouldAsk() : false;
    dispatch.call(doc, new CustomEventCtor(LEAVE_REPLY_EVENT, { detail: stringify({ asks }) }));
  });
}
