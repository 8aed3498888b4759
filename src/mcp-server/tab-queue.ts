/**
 * Page calls on one tab run one at a time, in the order they came: two actions in a tab would
 * share the page's dialog answers, its settle wait and what "the change shown" means. Calls on
 * different tabs do not wait for each other. A call cancelled while it waits leaves the queue
 * without holding up the ones behind it.
 */
import { raceAbort } from '../shared/race-abort';

export class TabQueue {
  readonly #tails = new Map<number, Promise<void>>();

  async run<T>(tabId: number, signal: AbortSignal, work: () => Promise<T>): Promise<T> {
    const before = this.#tails.get(tabId) ?? Promise.resolve();
    let done!: () => void;
    const mine = new Promise<void>((resolve) => (done = resolve));
    // The next call waits for this one and for everything this one waited for.
    const tail = before.then(() => mine);
    this.#tails.set(tabId, tail);
    try {
      await raceAbort(before, signal);
      return await work();
    } finally {
      done();
      if (this.#tails.get(tabId) === tail) this.#tails.delete(tabId);
    }
  }

  /** Whether a call runs or waits on the tab, for tests. */
  busy(tabId: number): boolean {
    return this.#tails.has(tabId);
  }
}
