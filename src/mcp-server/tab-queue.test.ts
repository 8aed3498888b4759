import { describe, expect, it } from 'vitest';
import { TabQueue } from './tab-queue';

const later = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('TabQueue', () => {
  it('runs calls on one tab one at a time, in order, and calls on other tabs at once', async () => {
    const queue = new TabQueue();
    const signal = new AbortController().signal;
    const log: string[] = [];
    const first = later();
    const a = queue.run(1, signal, async () => {
      log.push('a starts');
      await first.promise;
      log.push('a ends');
    });
    const b = queue.run(1, signal, async () => void log.push('b'));
    const other = queue.run(2, signal, async () => void log.push('other tab'));
    await other;
    expect(log).toEqual(['a starts', 'other tab']);
    first.resolve();
    await Promise.all([a, b]);
    expect(log).toEqual(['a starts', 'other tab', 'a ends', 'b']);
    expect(queue.busy(1)).toBe(false);
  });

  it('lets a call cancelled while it waits leave without holding up the next one, or running', async () => {
    const queue = new TabQueue();
    const log: string[] = [];
    const first = later();
    const a = queue.run(1, new AbortController().signal, async () => {
      await first.promise;
      log.push('a');
    });
    const cancel = new AbortController();
    const b = queue.run(1, cancel.signal, async () => void log.push('b'));
    const c = queue.run(1, new AbortController().signal, async () => void log.push('c'));
    cancel.abort(new Error('cancelled'));
    await expect(b).rejects.toThrow('cancelled');
    expect(log).toEqual([]);
    first.resolve();
    await Promise.all([a, c]);
    expect(log).toEqual(['a', 'c']);
  });

  it('goes on after a call that failed', async () => {
    const queue = new TabQueue();
    const signal = new AbortController().signal;
    await expect(queue.run(1, signal, async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queue.run(1, signal, async () => 'next')).toBe('next');
  });
});
