import { describe, expect, it } from 'vitest';
import { personBusyText, personFirst } from './person-first';
import { ToolFailure } from './tool-failure';

/** A tab where the person's last input was at `lastAt` (ms on Date.now()'s clock), or never. */
function tab(lastAt: () => number | undefined) {
  return async () => {
    const at = lastAt();
    return at === undefined ? null : Date.now() - at;
  };
}

describe('personFirst', () => {
  it('goes ahead at once when the person has not touched the tab, or left it a while ago', async () => {
    const waits: boolean[] = [];
    const options = { limitMs: 5_000, waiting: async (on: boolean) => void waits.push(on) };
    await personFirst({ ...options, idleMs: tab(() => undefined), signal: new AbortController().signal });
    await personFirst({ ...options, idleMs: tab(() => Date.now() - 5_000), signal: new AbortController().signal });
    expect(waits).toEqual([]);
  });

  it('waits while the person is busy, says so, and goes on once they have been idle long enough', async () => {
    const waits: boolean[] = [];
    let last = Date.now();
    const busy = setInterval(() => (last = Date.now()), 20);
    setTimeout(() => clearInterval(busy), 150);
    const started = Date.now();
    await personFirst({
      idleMs: tab(() => last),
      limitMs: 5_000,
      idleNeededMs: 200,
      pollMs: 20,
      waiting: async (on) => void waits.push(on),
      signal: new AbortController().signal,
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(330);
    expect(Date.now() - last).toBeGreaterThanOrEqual(200);
    expect(waits).toEqual([true, false]);
  });

  it('refuses in words at the limit when the person does not stop', async () => {
    const waits: boolean[] = [];
    const error = await personFirst({
      idleMs: async () => 0,
      limitMs: 150,
      pollMs: 20,
      waiting: async (on) => void waits.push(on),
      signal: new AbortController().signal,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ToolFailure);
    expect((error as Error).message).toBe(personBusyText(150));
    expect((error as Error).message).toContain('nothing was done');
    expect(waits).toEqual([true, false]);
  });

  it('takes a page that cannot say as left alone', async () => {
    await personFirst({
      idleMs: () => Promise.reject(new Error('no page')),
      limitMs: 100,
      signal: new AbortController().signal,
    });
  });
});
