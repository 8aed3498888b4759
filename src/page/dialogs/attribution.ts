/**
 * Which dialogs an action caused. A page's handlers run synchronously inside the events the
 * action dispatches, so a dialog asked for while one of those dispatches is on the stack is the
 * action's. The extension's isolated world has DOM prototypes of its own, which page scripts
 * cannot reach, and only Tabwright's code calls them: wrapping the methods that run page
 * handlers there (dispatchEvent, click, focus, requestSubmit, …) marks exactly the action's own
 * dispatches, whatever command made them.
 *
 * Promise reactions a handler starts run in the microtask checkpoint that follows, before any
 * other task (a timer, the person's next click) can run; the mark stays up for a number of
 * microtask hops after each dispatch so `await`ed work in a handler is still the action's.
 * Timers those handlers set are followed in the page's own world (main-world/timer-watch.ts): the
 * mark tells observers as each marked dispatch starts and when it is down again, and the relay
 * passes that on.
 */

/** Microtask hops the mark outlives a dispatch by. */
export const GRACE_HOPS = 64;

export interface DispatchMark {
  /** Whether an action's own dispatch (or its promise reactions) is running now. */
  readonly active: boolean;
  /** Dispatches an event that is not an action's (the relay's own replies), leaving the mark as it is. */
  dispatchUnmarked(target: EventTarget, event: Event): boolean;
  /** Calls `listener` as each marked dispatch starts (true) and when the mark is down again (false). */
  observe(listener: (active: boolean) => void): void;
}

type Method = (this: unknown, ...args: unknown[]) => unknown;

/** [interface, method names] that run page handlers synchronously. */
const DISPATCHING: ReadonlyArray<[string, readonly string[]]> = [
  ['EventTarget', ['dispatchEvent']],
  ['HTMLElement', ['click', 'focus', 'blur', 'showPopover', 'hidePopover', 'togglePopover']],
  ['SVGElement', ['focus', 'blur']],
  ['HTMLFormElement', ['requestSubmit', 'submit', 'reset']],
  ['HTMLDialogElement', ['show', 'showModal', 'close', 'requestClose']],
  ['Document', ['execCommand']],
];

const MARKS = new WeakMap<object, DispatchMark>();

/**
 * Wraps the dispatching methods of `scope` (the isolated world's window) once, and returns the
 * mark they raise. Calling it again for the same scope returns the same mark.
 */
export function markDispatches(scope: typeof globalThis): DispatchMark {
  const known = MARKS.get(scope);
  if (known) return known;
  let depth = 0;
  const observers: Array<(active: boolean) => void> = [];
  const tell = (active: boolean) => {
    for (const observer of observers) observer(active);
  };
  const plainDispatch = (scope as unknown as { EventTarget: typeof EventTarget }).EventTarget.prototype.dispatchEvent;
  const mark: DispatchMark = {
    get active() {
      return depth > 0;
    },
    dispatchUnmarked: (target, event) => plainDispatch.call(target, event),
    observe: (listener) => void observers.push(listener),
  };
  const enqueue = scope.queueMicrotask?.bind(scope) ?? queueMicrotask;
  const lower = () => {
    let hops = GRACE_HOPS;
    const hop = () => {
      if (--hops > 0) enqueue(hop);
      else if (--depth === 0) tell(false);
    };
    enqueue(hop);
  };
  for (const [name, methods] of DISPATCHING) {
    const proto = (scope as unknown as Record<string, { prototype?: Record<string, unknown> } | undefined>)[name]
      ?.prototype;
    if (!proto) continue;
    for (const method of methods) {
      const original = proto[method];
      if (typeof original !== 'function') continue;
      const wrapped = {
        [method](this: unknown, ...args: unknown[]) {
          depth++;
          tell(true);
          try {
            return (original as Method).apply(this, args);
          } finally {
            lower();
          }
        },
      }[method]!;
      Object.defineProperty(proto, method, { value: wrapped, writable: true, configurable: true });
    }
  }
  MARKS.set(scope, mark);
  return mark;
}
