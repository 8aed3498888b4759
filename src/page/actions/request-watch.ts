/**
 * The requests a page starts while an action runs, as its request signals report them. The
 * isolated world cannot see the page's `fetch` or `XMLHttpRequest`, so a hook in the page's own
 * world (`main-world/request-signals.ts`) announces each start and end as an event on the window;
 * only requests that started while this watch was open are waited for.
 */
export const REQUEST_EVENT = 'tabwright:request';

export class RequestWatch {
  readonly #open = new Set<string>();
  #events = 0;

  constructor(private readonly view: Window | null) {
    view?.addEventListener(REQUEST_EVENT, this.#onSignal);
  }

  readonly #onSignal = (event: Event) => {
    const detail = (event as CustomEvent<unknown>).detail;
    if (typeof detail !== 'string') return;
    const [kind, id] = detail.split(':', 2);
    if (!id) return;
    if (kind === 'start') this.#open.add(id);
    else if (kind !== 'end' || !this.#open.delete(id)) return; // ends of requests from before the watch
    this.#events++;
  };

  /** Requests started during the watch that have not finished. */
  get pending(): number {
    return this.#open.size;
  }

  /** Starts and ends seen so far: any change means the page is still working. */
  get events(): number {
    return this.#events;
  }

  dispose(): void {
    this.view?.removeEventListener(REQUEST_EVENT, this.#onSignal);
  }
}
