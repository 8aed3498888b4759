/**
 * What a hover reveals may come a few hundred ms later: a menu opened by a timer the page's
 * `mouseenter` handler set (hover intent). The main-world record notes the timers set while the
 * hover's events are handled (main-world/timer-watch.ts); the hover waits, bounded, until they
 * have fired, and then settles as any action does. A hover that set no timer does not wait.
 */
import type { RecordAsker } from '../listener-channel';
import { sleep } from './timing';

/** The longest wait for a hover's timers; hidden tabs run timers late, so they get longer. */
export const REVEAL_MAX_MS = 1_000;
export const REVEAL_MAX_HIDDEN_MS = 2_500;
const POLL_MS = 20;

/** Runs the hover's events with the page's timers watched. */
export function watchingTimers<T>(record: RecordAsker | undefined, doc: Document, events: () => T): T {
  record?.(doc, 'timers:watch');
  try {
    return events();
  } finally {
    record?.(doc, 'timers:unwatch');
  }
}

/** Waits until the timers the hover set have fired or been cleared, or the bound is reached. */
export async function revealed(record: RecordAsker | undefined, doc: Document, signal: AbortSignal): Promise<void> {
  if (!record?.(doc, 'timers:pending')) return;
  const deadline = performance.now() + (doc.hidden ? REVEAL_MAX_HIDDEN_MS : REVEAL_MAX_MS);
  while (record(doc, 'timers:pending') && performance.now() < deadline) await sleep(POLL_MS, signal);
}
