/**
 * Animation frames the page asks for while an action's effect plays out, so the page agent can
 * tell when that effect waits on frames a hidden tab never draws. `requestAnimationFrame` and
 * `cancelAnimationFrame` are wrapped: outside a watch they only pass the call on; from a mark on,
 * each request is noted until its callback runs or it is cancelled. The record lives in this
 * closure; the page can neither read nor change it.
 */

type FrameWindow = Window & typeof globalThis;

export interface FrameWatch {
  /** Starts noting frame requests afresh. */
  mark(): void;
  /** Whether a request noted since the mark has neither run nor been cancelled. */
  pending(): boolean;
}

export function watchFrames(win: FrameWindow): FrameWatch {
  const request = win.requestAnimationFrame;
  const cancel = win.cancelAnimationFrame;
  const noted = new Set<number>();
  let watching = false;

  win.requestAnimationFrame = {
    requestAnimationFrame(this: unknown, callback: FrameRequestCallback) {
      if (!watching || typeof callback !== 'function') return request.call(win, callback);
      const id: number = request.call(win, function (this: unknown, time: number) {
        noted.delete(id);
        return callback.call(this, time);
      } as FrameRequestCallback);
      noted.add(id);
      return id;
    },
  }.requestAnimationFrame as typeof win.requestAnimationFrame;

  win.cancelAnimationFrame = {
    cancelAnimationFrame(this: unknown, id: number) {
      noted.delete(id);
      return cancel.call(win, id);
    },
  }.cancelAnimationFrame as typeof win.cancelAnimationFrame;

  return {
    mark() {
      watching = true;
      noted.clear();
    },
    pending: () => noted.size > 0,
  };
}
