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
 */

/** Timers longer than this are not what a hover reveals (a session timeout, a poll). */
export const WATCHED_MAX_MS = 1_500;
/**
 * How long after an action's events a timer's callback still acts for it, counted along a chain of
 * timers: quicker than a person reacts, so it looks like the click's own result (a library that
 * defers its handler with `setTimeout(…, 0)`), not something that happens later (a save, a poll).
 */
export const ACTION_TIMER_MAX_MS = 250;

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
}

export function watchTimers(win: TimerWindow): TimerWatch {
  const set = win.setTimeout as unknown as (handler: unknown, delay?: unknown, ...rest: unknown[]) => number;
  const clear = win.clearTimeout as unknown as (id?: number) => void;
  const pendingIds = new Set<number>();
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
      if (!forHover && !action) return set.call(win, handler, delay, ...rest);
      const id: number = set.call(
        win,
        function (this: unknown, ...args: unknown[]) {
          pendingIds.delete(id);
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
      return id;
    },
  }.setTimeout as typeof win.setTimeout;

  win.clearTimeout = {
    clearTimeout(this: unknown, id?: number) {
      if (id !== undefined) pendingIds.delete(id);
      return clear.call(win, id);
    },
  }.clearTimeout as typeof win.clearTimeout;

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
  };
}
