/**
 * After an action the page needs a moment to show its effect. The wait adapts: it ends once the
 * DOM has been quiet for a short window after the last change (or, when nothing changed at all, a
 * little later, in case the change is waiting on the network), at once when the document starts
 * navigating away, and never later than the cap. Same-document navigations that a router
 * intercepts, and regions the page marks `aria-busy`, are waited for until they finish.
 */
import { ActionCancelled } from './timing';

export interface SettleOptions {
  /** Quiet time after the last DOM change that counts as settled. */
  quietMs: number;
  /** How long to wait when the action changed nothing at all. */
  idleMs: number;
  /** The hard cap on the whole wait. */
  capMs: number;
}

export const DEFAULT_SETTLE: SettleOptions = { quietMs: 100, idleMs: 300, capMs: 3_000 };

export type SettleReason = 'quiet' | 'idle' | 'cap' | 'navigation';

export interface Settled {
  reason: SettleReason;
  ms: number;
  mutations: number;
}

interface NavigateEventLike extends Event {
  destination: { sameDocument: boolean; url: string };
  downloadRequest: string | null;
}

interface NavigationLike extends EventTarget {
  transition: { finished: Promise<unknown> } | null;
}

/** Watches the document from before the action: DOM changes and navigations it starts. */
export class SettleWatch {
  readonly #observer: MutationObserver;
  readonly #navigation: NavigationLike | undefined;
  readonly #started = performance.now();
  #lastChange = -1;
  #mutations = 0;
  #navigate: NavigateEventLike | undefined;
  #pagehide = false;

  constructor(private readonly document: Document) {
    this.#busyBefore = new Set(document.querySelectorAll('[aria-busy="true"]'));
    this.#observer = new MutationObserver((records) => {
      this.#mutations += records.length;
      this.#lastChange = performance.now();
    });
    this.#observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const view = document.defaultView;
    this.#navigation = (view as (Window & { navigation?: NavigationLike }) | null)?.navigation;
    this.#navigation?.addEventListener('navigate', this.#onNavigate);
    view?.addEventListener('pagehide', this.#onPagehide);
  }

  readonly #onNavigate = (event: Event) => {
    const navigate = event as NavigateEventLike;
    if (navigate.downloadRequest === null || navigate.downloadRequest === undefined) this.#navigate = navigate;
  };

  /** Regions already busy before the action are the page's own business (some never stop). */
  readonly #busyBefore: ReadonlySet<Element>;

  #newlyBusy(): boolean {
    for (const element of this.document.querySelectorAll('[aria-busy="true"]')) {
      if (!this.#busyBefore.has(element)) return true;
    }
    return false;
  }

  readonly #onPagehide = () => {
    this.#pagehide = true;
  };

  /** A navigation that will replace this document has begun (not cancelled, not taken over by a router). */
  get leaving(): boolean {
    if (this.#pagehide) return true;
    const navigate = this.#navigate;
    if (!navigate || navigate.defaultPrevented || navigate.destination.sameDocument) return false;
    return !this.#navigation?.transition;
  }

  /** A same-document navigation a router intercepted and has not finished. */
  get routing(): Promise<unknown> | undefined {
    if (!this.#navigate || this.#navigate.defaultPrevented) return undefined;
    return this.#navigation?.transition?.finished;
  }

  dispose(): void {
    this.#observer.disconnect();
    this.#navigation?.removeEventListener('navigate', this.#onNavigate);
    this.document.defaultView?.removeEventListener('pagehide', this.#onPagehide);
  }

  /** Waits, from the end of the action, until the page settles (see the module comment). */
  settle(options: SettleOptions, signal: AbortSignal): Promise<Settled> {
    const actionEnded = performance.now();
    return new Promise<Settled>((resolve, reject) => {
      let routingDone = false;
      const routing = this.routing;
      routing?.then(
        () => (routingDone = true),
        () => (routingDone = true),
      );
      const finish = (reason: SettleReason) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        resolve({ reason, ms: Math.round(performance.now() - this.#started), mutations: this.#mutations });
      };
      const onAbort = () => {
        clearTimeout(timer);
        reject(new ActionCancelled());
      };
      const tick = () => {
        const now = performance.now();
        if (this.leaving) return finish('navigation');
        if (now - actionEnded >= options.capMs) return finish('cap');
        const waitingOnRouter = routing !== undefined && !routingDone;
        // A region the page marks aria-busy is still loading: its content is what the action asked for.
        const busy = this.#newlyBusy();
        if (!waitingOnRouter && !busy) {
          if (this.#lastChange >= 0 && now - this.#lastChange >= options.quietMs) return finish('quiet');
          if (this.#lastChange < 0 && now - actionEnded >= options.idleMs) return finish('idle');
        }
        timer = setTimeout(tick, Math.max(5, Math.min(25, options.quietMs / 4)));
      };
      if (signal.aborted) return reject(new ActionCancelled());
      signal.addEventListener('abort', onAbort, { once: true });
      let timer = setTimeout(tick, 0);
    });
  }
}
