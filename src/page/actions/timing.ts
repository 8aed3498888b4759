/**
 * Waits inside the page that stop as soon as their action is cancelled, kept by Tabwright's clock
 * (`../clock.ts`) rather than the page's frames or timers, which stall in a tab that is not in front.
 */
import { pageClock } from '../clock';

export class ActionCancelled extends Error {
  constructor() {
    super('The action was cancelled.');
  }
}

export function throwIfCancelled(signal: AbortSignal): void {
  if (signal.aborted) throw new ActionCancelled();
}

/** Waits until `schedule` calls back, or rejects once the action is cancelled. */
function waitOn(schedule: (callback: () => void) => () => void, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new ActionCancelled());
    const onAbort = () => {
      cancel();
      reject(new ActionCancelled());
    };
    const cancel = schedule(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** Waits `ms` by Tabwright's clock, which keeps time in a tab that is not in front too. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return waitOn((callback) => pageClock.schedule(ms, callback), signal);
}

/**
 * One beat of the clock, where a step lets the page draw or react before the next: the next
 * animation frame, or `BEAT_MS` when none comes first (frames do not run in a tab that is not in front).
 */
export function nextBeat(signal: AbortSignal): Promise<void> {
  return waitOn((callback) => pageClock.beat(callback), signal);
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
