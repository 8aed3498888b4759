/**
 * Typing's pause for the person: none while they are idle, a wait until they have been idle a
 * second after input, and a refusal in words when they keep at it past the limit.
 */
import { describe, expect, it } from 'vitest';
import { PageError } from '../env';
import { pauseForPerson } from './person-pause';

/** A person whose last input was at `last` (performance.now() time), or who never gave any. */
const personAt = (last: () => number | undefined) => ({
  idleMs: () => {
    const at = last();
    return at === undefined ? null : performance.now() - at;
  },
});

describe('the pause for the person', () => {
  const signal = new AbortController().signal;

  it('does not pause for a person who gave no input or has been idle a second', async () => {
    expect(
      await pauseForPerson(
        personAt(() => undefined),
        signal,
        () => 'busy',
      ),
    ).toBe(false);
    const long = performance.now() - 1_500;
    expect(
      await pauseForPerson(
        personAt(() => long),
        signal,
        () => 'busy',
      ),
    ).toBe(false);
  });

  it('waits until a second after the person’s last input', async () => {
    const last = performance.now() - 700;
    const started = performance.now();
    expect(
      await pauseForPerson(
        personAt(() => last),
        signal,
        () => 'busy',
      ),
    ).toBe(true);
    expect(performance.now() - last).toBeGreaterThanOrEqual(1_000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
  });

  it('gives up in words when the person keeps on past the limit', async () => {
    const error = await pauseForPerson(
      personAt(() => performance.now()),
      signal,
      () => 'still busy',
      300,
    ).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(PageError);
    expect((error as PageError).message).toBe('still busy');
    expect((error as PageError).code).toBe('person-busy');
  });
});
