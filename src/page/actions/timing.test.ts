import { describe, expect, it } from 'vitest';
import { ActionCancelled, keyPacer } from './timing';

/** Holds the thread for `ms`, as dispatching a key into a heavy page does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // spinning on purpose
  }
}

describe('keyPacer', () => {
  it('lets the microtasks a key queued (a framework render) run before the next key', async () => {
    const pause = keyPacer(new AbortController().signal);
    const rendered: number[] = [];
    for (let key = 1; key <= 5; key++) {
      queueMicrotask(() => rendered.push(key));
      await pause();
      expect(rendered).toEqual(Array.from({ length: key }, (_, i) => i + 1));
    }
  });

  it('gives the page a task of its own during a long text, not only at its end', async () => {
    const pause = keyPacer(new AbortController().signal, 8);
    let pageTaskRan = false;
    setTimeout(() => (pageTaskRan = true), 0);
    let keysBeforeTask = 0;
    for (let key = 0; key < 20; key++) {
      busy(2);
      await pause();
      if (!pageTaskRan) keysBeforeTask++;
    }
    expect(pageTaskRan).toBe(true);
    // At 2 ms a key and a task every 8 ms, the page's task runs within the first few keys.
    expect(keysBeforeTask).toBeLessThan(10);
  });

  it('does not pay a task per key for a short text', async () => {
    const pause = keyPacer(new AbortController().signal, 1_000);
    let pageTaskRan = false;
    setTimeout(() => (pageTaskRan = true), 0);
    for (let key = 0; key < 10; key++) await pause();
    expect(pageTaskRan).toBe(false);
  });

  it('stops when the action is cancelled', async () => {
    const controller = new AbortController();
    const pause = keyPacer(controller.signal);
    await pause();
    controller.abort();
    await expect(pause()).rejects.toBeInstanceOf(ActionCancelled);
  });
});
