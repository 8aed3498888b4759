/**
 * Waits inside the page that stop as soon as their action is cancelled. Animation frames do not run
 * in hidden or occluded tabs, so every frame wait is backed by a timer.
 */

export class ActionCancelled extends Error {
  constructor() {
    super('The action was cancelled.');
  }
}

export function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new ActionCancelled();
}

export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ActionCancelled());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new ActionCancelled());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** The next animation frame, or `fallbackMs` when frames are not running. */
export function nextFrame(view: Window, signal: AbortSignal, fallbackMs = 50): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ActionCancelled());
    let done = false;
    const finish = (error?: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      view.cancelAnimationFrame(frame);
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    const onAbort = () => finish(new ActionCancelled());
    const timer = setTimeout(() => finish(), fallbackMs);
    const frame = view.requestAnimationFrame(() => finish());
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Lets the page run a task of its own (framework renders scheduled on microtasks or message
 * channels) before the next step, as separate key presses would. A message-channel task is not
 * clamped the way nested timers are.
 */
export function yieldToPage(signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ActionCancelled());
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      if (signal.aborted) reject(new ActionCancelled());
      else resolve();
    };
    channel.port2.postMessage(undefined);
  });
}
