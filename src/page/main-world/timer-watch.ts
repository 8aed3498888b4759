/**
 * Timers the page sets while an action's events are handled — a hover menu that opens 200 ms
 * after `mouseenter` — so the page agent can wait for them before it reports what changed, and
 * not wait at all when the page set none. `setTimeout` and `clearTimeout` are wrapped: outside a
 * watch they only pass the call on; during one, a timer of up to `WATCHED_MAX_MS` is noted until
 * it fires or is cleared, and timers its callback sets are watched too.
 */

/** Timers longer than this are not what a hover reveals (a session timeout, a poll). */
export const WATCHED_MAX_MS = 1_500;

type TimerWindow = Window & typeof globalThis;

export interface TimerWatch {
  /** Starts (true) or stops (false) noting new timers; answers whether it is watching. */
  watch(on: boolean): boolean;
  /** Whether a noted timer has neither fired nor been cleared. */
  pending(): boolean;
}

export function watchTimers(win: TimerWindow): TimerWatch {
  const set = win.setTimeout as unknown as (handler: unknown, delay?: unknown, ...rest: unknown[]) => number;
  const clear = win.clearTimeout as unknown as (id?: number) => void;
  const pendingIds = new Set<number>();
  let watching = false;

  win.setTimeout = {
    setTimeout(this: unknown, handler: TimerHandler, delay?: number, ...rest: unknown[]) {
      const ms = Number(delay) || 0;
      if (!watching || typeof handler !== 'function' || ms > WATCHED_MAX_MS) {
        return set.call(win, handler, delay, ...rest);
      }
      const id: number = set.call(
        win,
        function (this: unknown, ...args: unknown[]) {
          pendingIds.delete(id);
          const outer = watching;
          watching = true;
          try {
            return (handler as (...a: unknown[]) => unknown).apply(this, args);
          } finally {
            watching = outer;
          }
        },
        delay,
        ...rest,
      );
      pendingIds.add(id);
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
  };
}
