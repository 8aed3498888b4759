/**
 * Follows one tab's top-frame navigation from the events the browser reports (before-navigate,
 * committed, completed, error, same-document updates) and answers "is a navigation still going,
 * and how did it end". Pure: the platform layer feeds it events; waits take an AbortSignal.
 */

export type NavigationEvent =
  | { kind: 'before'; url: string }
  | { kind: 'committed'; url: string }
  | { kind: 'completed'; url: string }
  | { kind: 'error'; url: string; error: string }
  | { kind: 'same-document'; url: string }
  | { kind: 'opened-tab'; tabId: number };

export type SettleOutcome = 'none' | 'loaded' | 'same-document' | 'failed' | 'timeout';

export interface NavigationState {
  /** A navigation of the top frame started since the watch began. */
  readonly started: boolean;
  /** It is still going (no completion or error yet). */
  readonly pending: boolean;
  /** A new document committed in the top frame. */
  readonly committed: boolean;
  /** The URL changed without a new document (pushState, a fragment). */
  readonly sameDocument: boolean;
  /** Why the last navigation failed, e.g. net::ERR_CONNECTION_REFUSED. */
  readonly error: string | undefined;
  readonly url: string | undefined;
  /** Tabs this tab opened meanwhile (links with target=_blank, window.open). */
  readonly openedTabs: readonly number[];
}

/** A navigation superseded by another (a redirect by script, a second click) is not a failure. */
const SUPERSEDED = 'net::ERR_ABORTED';

export class NavigationTracker implements NavigationState {
  started = false;
  pending = false;
  committed = false;
  sameDocument = false;
  error: string | undefined;
  url: string | undefined;
  readonly openedTabs: number[] = [];
  readonly #listeners = new Set<() => void>();

  record(event: NavigationEvent): void {
    switch (event.kind) {
      case 'before':
        this.started = true;
        this.pending = true;
        this.error = undefined;
        break;
      case 'committed':
        this.started = true;
        this.committed = true;
        this.pending = true;
        break;
      case 'completed':
        this.pending = false;
        break;
      case 'error':
        this.pending = false;
        if (event.error !== SUPERSEDED) this.error = event.error;
        break;
      case 'same-document':
        this.sameDocument = true;
        break;
      case 'opened-tab':
        this.openedTabs.push(event.tabId);
        return this.#notify();
    }
    this.url = event.url;
    this.#notify();
  }

  #notify(): void {
    for (const listener of [...this.#listeners]) listener();
  }

  #outcome(): SettleOutcome | undefined {
    if (this.pending) return undefined;
    if (this.error) return 'failed';
    if (this.started) return 'loaded';
    if (this.sameDocument) return 'same-document';
    return undefined;
  }

  /**
   * Resolves once no navigation is going. When `expectStartMs` is given, a navigation is expected
   * (the page said one began): wait that long for the browser to report it before answering 'none'.
   */
  settled(options: { expectStartMs?: number; timeoutMs: number }, signal: AbortSignal): Promise<SettleOutcome> {
    const now = this.#outcome();
    if (now) return Promise.resolve(now);
    if (!this.pending && !options.expectStartMs) return Promise.resolve('none');
    return new Promise<SettleOutcome>((resolve, reject) => {
      const finish = (outcome: SettleOutcome) => {
        clearTimeout(deadline);
        clearTimeout(expectation);
        this.#listeners.delete(check);
        signal.removeEventListener('abort', onAbort);
        resolve(outcome);
      };
      const check = () => {
        const outcome = this.#outcome();
        if (outcome) finish(outcome);
      };
      const onAbort = () => {
        clearTimeout(deadline);
        clearTimeout(expectation);
        this.#listeners.delete(check);
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      const deadline = setTimeout(() => finish('timeout'), options.timeoutMs);
      const expectation = setTimeout(() => {
        if (!this.started && !this.sameDocument) finish('none');
      }, options.expectStartMs ?? options.timeoutMs);
      this.#listeners.add(check);
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}
