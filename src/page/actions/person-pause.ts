/**
 * The person always wins, between keystrokes too: an agent's typing that the person interrupts by
 * using the tab pauses until they have left it alone for `PERSON_IDLE_MS`, and is given up (what
 * was typed so far said in words) when they do not within `PERSON_PAUSE_LIMIT_MS`, which ends
 * before the panel's deadline for the action. Waits keep Tabwright's clock (timing.ts).
 */
import { PageError } from '../env';
import { PageErrorCode } from '../error-codes';
import { PERSON_IDLE_MS } from '../../shared/person-idle';
import { sleep } from './timing';

/** Longest pause for the person within one action. */
export const PERSON_PAUSE_LIMIT_MS = 20_000;
const PERSON_POLL_MS = 100;

export interface PersonClock {
  /** Milliseconds since the person's last input in the document, null when they have given none. */
  idleMs(): number | null;
}

/** Resolves at once when the person is not busy; else once they have been idle long enough (true: it paused). */
export async function pauseForPerson(
  person: PersonClock,
  signal: AbortSignal,
  gaveUp: () => string,
  limitMs = PERSON_PAUSE_LIMIT_MS,
): Promise<boolean> {
  let idle = person.idleMs();
  if (idle === null || idle >= PERSON_IDLE_MS) return false;
  const started = performance.now();
  while (idle !== null && idle < PERSON_IDLE_MS) {
    if (performance.now() - started >= limitMs) throw new PageError(gaveUp(), PageErrorCode.PersonBusy);
    await sleep(Math.min(PERSON_IDLE_MS - idle, PERSON_POLL_MS), signal);
    idle = person.idleMs();
  }
  return true;
}
