/**
 * The person always wins: while they are typing, clicking or scrolling in a tab, an agent's write
 * in that tab waits until they have left it alone for `PERSON_IDLE_MS`, up to the call's limit, and
 * is then refused in words. Reads do not wait. The page says how long the person has been idle
 * (`page/person-input.ts`); a page that cannot say is taken as left alone.
 */
import { PERSON_IDLE_MS } from '../shared/person-idle';
import { ToolFailure } from './tool-failure';

export { PERSON_IDLE_MS };
/** How often the page is asked again while the agent waits. */
const PERSON_POLL_MS = 200;

export interface PersonFirstOptions {
  /** Milliseconds since the person's last input in the tab, null when none; rejects when the page cannot say. */
  idleMs(signal: AbortSignal): Promise<number | null>;
  /** Longest the write may wait. */
  limitMs: number;
  /** The agent starts (true) or stops (false) waiting for the person: the outline says so. */
  waiting?(on: boolean): Promise<void>;
  signal: AbortSignal;
  idleNeededMs?: number;
  pollMs?: number;
}

export function personBusyText(limitMs: number): string {
  return (
    `The person is using this tab (typing, clicking or scrolling) and has not left it alone for ` +
    `${Math.round(limitMs / 1000)} s, so nothing was done. Try again in a while, or ask them in the chat to leave ` +
    `the tab to you.`
  );
}

/** Resolves once the person has been idle long enough; throws a `ToolFailure` at the limit. */
export async function personFirst(options: PersonFirstOptions): Promise<void> {
  const needed = options.idleNeededMs ?? PERSON_IDLE_MS;
  const poll = options.pollMs ?? PERSON_POLL_MS;
  const started = Date.now();
  const idle = async () => {
    const ms = await options.idleMs(options.signal).catch(() => null);
    return ms === null ? Infinity : ms;
  };
  let idleFor = await idle();
  if (idleFor >= needed) return;
  await options.waiting?.(true);
  try {
    while (idleFor < needed) {
      if (Date.now() - started >= options.limitMs) throw new ToolFailure(personBusyText(options.limitMs));
      // Asked again when the person could first have been idle long enough, and at least every poll.
      await sleep(Math.max(0, Math.min(needed - idleFor, poll)), options.signal);
      idleFor = await idle();
    }
  } finally {
    await options.waiting?.(false);
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
