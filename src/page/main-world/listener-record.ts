/**
 * The main world's record of which elements listen for clicks, mouse, pointer or key events
 * themselves: `addEventListener`, `removeEventListener` and the `on…` handler properties are
 * wrapped so each call is noted, then passed on unchanged. The record is a WeakMap in this
 * closure; the page agent asks about one element at a time through the channel described in
 * ../listener-channel.ts. Listeners added before this script ran (a document loaded before the
 * site was allowed) are never seen. The same channel answers about timers a hover set off
 * (timer-watch.ts) and animation frames an action's effect waits on (frame-watch.ts).
 */
import { ACTION_EVENT_TYPES, HELLO_EVENT, READY_EVENT } from '../listener-channel';
import { watchFrames } from './frame-watch';
import { watchTimers } from './timer-watch';

type RecordWindow = Window & typeof globalThis;

/** One listener as the DOM tells them apart: type, callback and capture. */
interface Noted {
  type: string;
  callback: unknown;
  capture: boolean;
}

const captureOf = (options: unknown) =>
  typeof options === 'boolean' ? options : !!(options && (options as { capture?: unknown }).capture);

export function installListenerRecord(win: RecordWindow): void {
  const doc = win.document;
  const target = win.EventTarget.prototype;
  const add = target.addEventListener;
  const remove = target.removeEventListener;
  const listen = add;
  const dispatch = target.dispatchEvent;
  const stop = win.Event.prototype.stopImmediatePropagation;
  const cancel = win.Event.prototype.preventDefault;
  const composedPath = win.Event.prototype.composedPath;
  const ElementCtor = win.Element;
  const types = new Set(ACTION_EVENT_TYPES);
  const noted = new WeakMap<Element, Noted[]>();
  const handlers = new WeakMap<Element, Set<string>>();
  /** Elements with at least one noted listener or handler, so an empty record is cheap to tell. */
  let listening = 0;

  const has = (element: Element) => !!noted.get(element)?.length || !!handlers.get(element)?.size;
  const change = (element: Element, update: () => void) => {
    const before = has(element);
    update();
    listening += Number(has(element)) - Number(before);
  };

  target.addEventListener = {
    addEventListener(this: EventTarget, ...args: Parameters<typeof add>) {
      const result = add.apply(this, args);
      const [type, callback, options] = args;
      if (callback && types.has(type) && this instanceof ElementCtor) {
        const capture = captureOf(options);
        const list = noted.get(this) ?? [];
        if (!list.some((n) => n.type === type && n.callback === callback && n.capture === capture)) {
          change(this, () => {
            list.push({ type, callback, capture });
            noted.set(this, list);
          });
        }
      }
      return result;
    },
  }.addEventListener;

  target.removeEventListener = {
    removeEventListener(this: EventTarget, ...args: Parameters<typeof remove>) {
      const result = remove.apply(this, args);
      const [type, callback, options] = args;
      const list = this instanceof ElementCtor ? noted.get(this) : undefined;
      if (list) {
        const capture = captureOf(options);
        const at = list.findIndex((n) => n.type === type && n.callback === callback && n.capture === capture);
        if (at >= 0) change(this as Element, () => list.splice(at, 1));
      }
      return result;
    },
  }.removeEventListener;

  // `element.onclick = fn` and the like; inline attributes are seen by the page agent itself.
  const proto = win.HTMLElement.prototype;
  for (const type of types) {
    const property = `on${type}`;
    const descriptor = Object.getOwnPropertyDescriptor(proto, property);
    const set = descriptor?.set;
    if (!descriptor || !set) continue;
    Object.defineProperty(proto, property, {
      ...descriptor,
      set: {
        [property](this: Element, value: unknown) {
          set.call(this, value);
          if (!(this instanceof ElementCtor)) return;
          change(this, () => {
            const own = handlers.get(this) ?? new Set<string>();
            if (typeof value === 'function') own.add(type);
            else own.delete(type);
            handlers.set(this, own);
          });
        },
      }[property] as (value: unknown) => void,
    });
  }

  const timers = watchTimers(win);
  const frames = watchFrames(win);
  const ACTING = 'actions:on:';
  const ACTION_TIMER = 'actions:timer:';
  let question: string | undefined;
  const answer = (event: Event) => {
    stop.call(event);
    const asked = composedPath.call(event)[0];
    const detail = (event as CustomEvent).detail;
    let yes: boolean;
    if (detail === 'timers:watch' || detail === 'timers:unwatch') yes = timers.watch(detail === 'timers:watch');
    else if (detail === 'timers:pending') yes = timers.pending();
    else if (detail === 'soon:mark' || detail === 'soon:unmark') yes = (timers.mark(detail === 'soon:mark'), true);
    else if (detail === 'soon:pending') yes = timers.soon();
    else if (detail === 'soon:later') yes = timers.later();
    else if (detail === 'frames:mark') yes = (frames.mark(), true);
    else if (detail === 'frames:pending') yes = frames.pending();
    else if (typeof detail === 'string' && detail.startsWith(ACTING)) {
      timers.acting(Number(detail.slice(ACTING.length)) || 0);
      yes = true;
    } else if (typeof detail === 'string' && detail.startsWith(ACTION_TIMER)) {
      const id = Number(detail.slice(ACTION_TIMER.length)) || 0;
      yes = id > 0 && timers.actionTimer() === id;
    } else yes = asked === doc ? listening > 0 : asked instanceof ElementCtor && has(asked);
    if (yes) cancel.call(event);
  };
  // Registered before any page script runs; only the first type offered is ever taken.
  listen.call(doc, HELLO_EVENT, (event: Event) => {
    const type = (event as CustomEvent).detail;
    if (question !== undefined || typeof type !== 'string' || !type) return;
    question = type;
    cancel.call(event);
    listen.call(win, type, answer, true);
  });
  if (question === undefined) dispatch.call(doc, new win.Event(READY_EVENT));
}
