/**
 * Timers the page sets while an action's events are handled — a hover menu that opens 200 ms
 * after `mouseenter` — so the page agent can wait for them before it reports what changed, and
 * not wait at all when the page set none. `setTimeout` and `clearTimeout` are wrapped: outside a
 * watch they only pass the call on; during one, a timer of up to `WATCHED_MAX_MS` is noted until
 * it fires or is cleared, and timers its callback sets are watched too.
 *
 * Apart from a hover's watch, timers that an action's own events set are followed to their
 * callbacks: a calendar whose day click shows its prompt from a `setTimeout(…, 0)` the click's
 * mouseup handler set still asks because of the action, if it asks within `ACTION_TIMER_MAX_MS`
 * of the action's events. Each timer keeps the number of the action
 * that set it (the relay numbers them), so a timer an earlier click left behind is not taken for a
 * later action's: `actionTimer()` says whose timer's callback runs now.
 *
 * And while an action and its settle run (`mark`), the page's work due soon is noted: timers and
 * intervals of up to `SOON_MAX_MS`, and messages posted to a `MessagePort` (how React's scheduler
 * and others queue their next slice of work). A settle that sees none of it ends on one quiet beat,
 * where it would otherwise need two (actions/settle.ts). Noted the same way, for an action that
 * changed nothing: timers, intervals and idle callbacks due within the settle's idle wait
 * (`LATER_MAX_MS`), and work whose answer may come back at any time (a message to a worker, a
 * socket or a broadcast channel, a file or blob read, a database transaction, the clipboard, a
 * timer given as a string). A settle that sees none of that need
 * not wait out its idle time in case a change is on its way.
 */

/** Timers longer than this are not what a hover reveals (a session timeout, a poll). */
export const WATCHED_MAX_MS = 1_500;
/**
 * How long after an action's events a timer's callback still acts for it, counted along a chain of
 * timers: quicker than a person reacts, so it looks like the click's own result (a library that
 * defers its handler with `setTimeout(…, 0)`), not something that happens later (a save, a poll).
 */
export const ACTION_TIMER_MAX_MS = 250;

/** Timers and intervals at most this long may still change the page within a settle's beats. */
export const SOON_MAX_MS = 100;

/** Timers at most this long may still change the page within a settle's idle wait (its longest). */
export const LATER_MAX_MS = 300;

type TimerWindow = Window & typeof globalThis;

export interface TimerWatch {
  /** Starts (true) or stops (false) noting new timers; answers whether it is watching. */
  watch(on: boolean): boolean;
  /** Whether a noted timer has neither fired nor been cleared. */
  pending(): boolean;
  /** Says that action `id`'s own events are being handled now (0: no action's). */
  acting(id: number): void;
  /** The action whose events set the timer (or the timer that set it) whose callback runs now; 0 for none. */
  actionTimer(): number;
  /** Starts (true) or stops (false) noting the work the page sets for soon; marks may overlap. */
  mark(on: boolean): void;
  /**
   * Whether a timer or interval due soon, set under a mark, has neither fired nor been cleared, or
   * the page has posted a port message under a mark since this was last asked.
   */
  soon(): boolean;
  /**
   * Whether work set under a mark may still change the page within `LATER_MAX_MS`: a timer,
   * interval or idle callback due by then not yet run nor cleared, or, since the outermost mark
   * opened, a message whose answer can come at any time.
   */
  later(): boolean;
}

/** Wraps `method` on `proto` so that calls made under a mark are noted; the call itself passes on. */
function noteCalls(proto: object | undefined, method: string, note: () => void): void {
  const original = (proto as Record<string, unknown> | undefined)?.[method];
  if (!proto || typeof original !== 'function') return;
  (proto as Record<string, unknown>)[method] = {
    [method](this: unknown, ...args: unknown[]) {
      note();
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    },
  }[method];
}

export function watchTimers(win: TimerWindow): TimerWatch {
  const set = win.setTimeout as unknown as (handler: unknown, delay?: unknown, ...rest: unknown[]) => number;
  const clear = win.clearTimeout as unknown as (id?: number) => void;
  const repeat = win.setInterval as unknown as (handler: unknown, delay?: unknown, ...rest: unknown[]) => number;
  const stopRepeat = win.clearInterval as unknown as (id?: number) => void;
  const pendingIds = new Set<number>();
  /** Timers and intervals due soon, set while a mark is open. */
  const soonIds = new Set<number>();
  /** Timers, intervals and idle callbacks due within the idle wait, set while a mark is open. */
  const laterIds = new Set<number>();
  const idleIds = new Set<number>();
  let marks = 0;
  let posted = false;
  /** Work whose answer can come at any time was started under the open marks. */
  let unsure = false;
  const isSoon = (handler: unknown, ms: number) => marks > 0 && typeof handler === 'function' && ms <= SOON_MAX_MS;
  /** Whether a timer is due within the idle wait; one given as a string cannot be followed, so it is unsure. */
  const isLater = (handler: unknown, ms: number) => {
    if (marks === 0 || ms > LATER_MAX_MS) return false;
    if (typeof handler !== 'function') unsure = true;
    return typeof handler === 'function';
  };
  let watching = false;
  let acting = 0;
  let actionTimer = 0;
  /** How long after its action's events the running action timer was due. */
  let actionDelay = 0;

  win.setTimeout = {
    setTimeout(this: unknown, handler: TimerHandler, delay?: number, ...rest: unknown[]) {
      const ms = Number(delay) || 0;
      const short = typeof handler === 'function' && ms <= WATCHED_MAX_MS;
      const forHover = short && watching;
      const due = (acting ? 0 : actionDelay) + ms;
      const action = typeof handler === 'function' && due <= ACTION_TIMER_MAX_MS ? acting || actionTimer : 0;
      const soon = isSoon(handler, ms);
      const later = isLater(handler, ms);
      if (!forHover && !action && !later) return set.call(win, handler, delay, ...rest);
      const id: number = set.call(
        win,
        function (this: unknown, ...args: unknown[]) {
          pendingIds.delete(id);
          soonIds.delete(id);
          laterIds.delete(id);
          const outer = watching;
          const [outerAction, outerDelay] = [actionTimer, actionDelay];
          if (forHover) watching = true;
          [actionTimer, actionDelay] = [action, due];
          try {
            return (handler as (...a: unknown[]) => unknown).apply(this, args);
          } finally {
            watching = outer;
            [actionTimer, actionDelay] = [outerAction, outerDelay];
          }
        },
        delay,
        ...rest,
      );
      if (forHover) pendingIds.add(id);
      if (soon) soonIds.add(id);
      if (later) laterIds.add(id);
      return id;
    },
  }.setTimeout as typeof win.setTimeout;

  win.clearTimeout = {
    clearTimeout(this: unknown, id?: number) {
      if (id !== undefined) {
        pendingIds.delete(id);
        soonIds.delete(id);
        laterIds.delete(id);
      }
      return clear.call(win, id);
    },
  }.clearTimeout as typeof win.clearTimeout;

  // An interval set soon keeps the page changing until it is cleared.
  win.setInterval = {
    setInterval(this: unknown, handler: TimerHandler, delay?: number, ...rest: unknown[]) {
      const id = repeat.call(win, handler, delay, ...rest);
      const ms = Number(delay) || 0;
      if (isSoon(handler, ms)) soonIds.add(id);
      if (isLater(handler, ms)) laterIds.add(id);
      return id;
    },
  }.setInterval as typeof win.setInterval;

  win.clearInterval = {
    clearInterval(this: unknown, id?: number) {
      if (id !== undefined) {
        soonIds.delete(id);
        laterIds.delete(id);
      }
      return stopRepeat.call(win, id);
    },
  }.clearInterval as typeof win.clearInterval;

  noteCalls(win.MessagePort?.prototype, 'postMessage', () => {
    if (marks > 0) posted = true;
  });

  const idle = win.requestIdleCallback as ((callback: IdleRequestCallback, options?: unknown) => number) | undefined;
  const cancelIdle = win.cancelIdleCallback as ((id: number) => void) | undefined;
  if (idle && cancelIdle) {
    win.requestIdleCallback = {
      requestIdleCallback(this: unknown, callback: IdleRequestCallback, options?: IdleRequestOptions) {
        if (marks === 0 || typeof callback !== 'function') return idle.call(win, callback, options);
        const id: number = idle.call(
          win,
          function (this: unknown, deadline: IdleDeadline) {
            idleIds.delete(id);
            return callback.call(this, deadline);
          },
          options,
        );
        idleIds.add(id);
        return id;
      },
    }.requestIdleCallback;
    win.cancelIdleCallback = {
      cancelIdleCallback(this: unknown, id: number) {
        idleIds.delete(id);
        return cancelIdle.call(win, id);
      },
    }.cancelIdleCallback;
  }

  // Their answers come back when the other side (or the disk) sends them, which no timer here can
  // tell: a worker, a socket, another tab; a file the action handed the page (an upload's preview),
  // the page's own database, the clipboard (a "Copied" that shows once the write is done).
  const answerable = () => {
    if (marks > 0) unsure = true;
  };
  noteCalls(win.Worker?.prototype, 'postMessage', answerable);
  noteCalls(win.WebSocket?.prototype, 'send', answerable);
  noteCalls(win.BroadcastChannel?.prototype, 'postMessage', answerable);
  for (const read of ['readAsArrayBuffer', 'readAsBinaryString', 'readAsDataURL', 'readAsText'])
    noteCalls(win.FileReader?.prototype, read, answerable);
  for (const read of ['arrayBuffer', 'bytes', 'text']) noteCalls(win.Blob?.prototype, read, answerable);
  noteCalls(win.IDBDatabase?.prototype, 'transaction', answerable);
  for (const use of ['read', 'readText', 'write', 'writeText']) noteCalls(win.Clipboard?.prototype, use, answerable);

  return {
    watch(on) {
      watching = on;
      if (on) pendingIds.clear();
      return on;
    },
    pending: () => pendingIds.size > 0,
    acting(id) {
      acting = id;
    },
    actionTimer: () => actionTimer,
    // Timers noted under an earlier mark stay noted until they fire or are cleared: an interval an
    // earlier action started still changes the page.
    mark(on) {
      if (on && marks === 0) [posted, unsure] = [false, false];
      marks = Math.max(0, marks + (on ? 1 : -1));
    },
    soon() {
      const answer = soonIds.size > 0 || posted;
      posted = false;
      return answer;
    },
    later: () => laterIds.size > 0 || idleIds.size > 0 || unsure,
  };
}
