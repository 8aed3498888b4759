/**
 * How the page agent (isolated world) learns which elements have click, mouse, pointer or key
 * listeners of their own, recorded by the main-world script (main-world/listener-record.ts),
 * without the page reading or changing the record.
 *
 * Both content scripts run at document_start, before any page script. The isolated one makes a
 * random event type and hands it over in a `HELLO_EVENT`, which the main world cancels to say it
 * took it (when the main world runs second, it asks for the offer once with `READY_EVENT`); the
 * main world takes the first type it is given and never another. A question is an event of that type dispatched on the element: the main world's
 * listener, registered on the window before any page script could register one, stops it there,
 * so no page listener sees it, and answers by cancelling it. A page script does not know the type,
 * so it cannot ask; the record itself lives in the main script's closure.
 */

/** Isolated → main world: `detail` is the question's event type. */
export const HELLO_EVENT = 'tabwright-listeners-hello';
/** Main → isolated world: the record is installed; say the type (again). */
export const READY_EVENT = 'tabwright-listeners-ready';
/** The isolated world's global holding the question's event type. */
export const LISTENER_QUERY_KEY = '__tabwrightListenerQuery';

/** Event types that make an element something a person acts on when it listens for them itself. */
export const ACTION_EVENT_TYPES: readonly string[] = [
  'click',
  'dblclick',
  'auxclick',
  'contextmenu',
  'mousedown',
  'mouseup',
  'mouseenter',
  'mouseover',
  'pointerdown',
  'pointerup',
  'pointerenter',
  'pointerover',
  'touchstart',
  'keydown',
  'keyup',
  'keypress',
];

type Scope = Record<string, unknown>;

/**
 * The isolated world's half, run at document_start by the registered isolated-world script: makes
 * the question's type and tells the main world, now and whenever it says it is ready.
 */
export function offerListenerQuery(doc: Document, scope: object = globalThis): void {
  const global = scope as Scope;
  if (typeof global[LISTENER_QUERY_KEY] === 'string') return;
  const type = `tabwright-listeners-${crypto.randomUUID()}`;
  Object.defineProperty(global, LISTENER_QUERY_KEY, { value: type });
  // The main world cancels the offer it takes; until then it is made once more when it is ready.
  const { CustomEvent } = doc.defaultView!;
  const taken = () => !doc.dispatchEvent(new CustomEvent(HELLO_EVENT, { detail: type, cancelable: true }));
  if (!taken()) doc.addEventListener(READY_EVENT, taken, { once: true });
}

/** Asks whether one element has recorded listeners of its own. */
export type ListenerQuery = (element: Element) => boolean;

/**
 * What the agent can ask besides listeners: about the page's timers around a hover; (the dialog
 * relay) about timers an action's events set: `actions:on:<n>` while action n's events are handled
 * (0: none's), `actions:timer:<n>` whether the callback of one of its timers runs now; about
 * the animation frames the page requested since the agent's mark; and (`soon:…`) about the work
 * the page set for soon, or for within the idle wait (`soon:later`), while an action settles
 * (main-world/timer-watch.ts).
 */
export type TimerQuestion =
  | 'timers:watch'
  | 'timers:unwatch'
  | 'timers:pending'
  | `actions:on:${number}`
  | `actions:timer:${number}`
  | 'frames:mark'
  | 'frames:pending'
  | 'soon:mark'
  | 'soon:unmark'
  | 'soon:pending'
  | 'soon:later';

/** Asks the main-world record one question; false when there is no record. */
export type RecordAsker = (target: EventTarget, question: 'listeners' | TimerQuestion) => boolean;

/**
 * The question channel itself, or undefined when this document has no main-world record.
 * `dispatch` sends the question (the dialog relay sends its own unmarked, as no action's).
 */
export function recordAsker(
  doc: Document,
  scope: object = globalThis,
  dispatch: (target: EventTarget, event: Event) => boolean = (target, event) => target.dispatchEvent(event),
): RecordAsker | undefined {
  const type = (scope as Scope)[LISTENER_QUERY_KEY];
  if (typeof type !== 'string' || !doc.defaultView) return undefined;
  const { CustomEvent } = doc.defaultView;
  return (target, question) =>
    !dispatch(target, new CustomEvent(type, { cancelable: true, composed: true, detail: question }));
}

/**
 * The page agent's question, or undefined when this document has no record (the main-world
 * script was not registered when it loaded) or the record holds no element at all.
 */
export function listenerQuery(
  doc: Document,
  scope: object = globalThis,
  dispatch?: (target: EventTarget, event: Event) => boolean,
): ListenerQuery | undefined {
  const ask = recordAsker(doc, scope, dispatch);
  // Asked of the document: whether any element is recorded at all.
  if (!ask?.(doc, 'listeners')) return undefined;
  return (element) => ask(element, 'listeners');
}
