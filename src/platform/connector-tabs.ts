/**
 * Connectors' own background tabs over `chrome.tabs` and `chrome.scripting`: one tab per connector
 * and window, opened inactive on the connector's site the first time it is needed and reused
 * afterwards, so a connector never moves the tab the user is looking at. Reads, waits and fetches
 * there go to the page agent over the transport browser tools use.
 */
import type { ConnectorTabPort } from '../connectors/context';
import { ConnectorError } from '../connectors/sdk';
import { LOAD_TIMEOUT_MS, navigateAndWait } from './chrome-browser';
import { ChromePageTransport, explainScriptingError } from './chrome-page';
import { raceAbort } from '../shared/race-abort';

export class ChromeConnectorTabs implements ConnectorTabPort {
  /** connector id → its tab; a closed tab is noticed on the next use and replaced. */
  readonly #tabs = new Map<string, number>();

  readonly page = new ChromePageTransport();

  constructor(private readonly windowId: number) {}

  readonly #opening = new Map<string, Promise<number>>();

  /** Concurrent calls of one connector share the tab being opened. */
  acquire(connectorId: string, url: string, signal: AbortSignal): Promise<number> {
    let opening = this.#opening.get(connectorId);
    if (!opening) {
      opening = this.#acquire(connectorId, url, signal).finally(() => this.#opening.delete(connectorId));
      this.#opening.set(connectorId, opening);
    }
    return opening;
  }

  async #acquire(connectorId: string, url: string, signal: AbortSignal): Promise<number> {
    const known = this.#tabs.get(connectorId);
    if (known !== undefined && (await chrome.tabs.get(known).catch(() => undefined))) return known;
    const created = await raceAbort(chrome.tabs.create({ url, active: false, windowId: this.windowId }), signal);
    if (created.id === undefined) throw new ConnectorError('Could not open a tab for the connector.');
    this.#tabs.set(connectorId, created.id);
    await this.#settle(created.id, signal);
    return created.id;
  }

  /** Waits (bounded) until a freshly created tab has finished loading. */
  async #settle(tabId: number, signal: AbortSignal): Promise<void> {
    const deadline = Date.now() + LOAD_TIMEOUT_MS;
    while (Date.now() < deadline && !signal.aborted) {
      const tab = await chrome.tabs.get(tabId).catch(() => undefined);
      if (!tab) throw new ConnectorError('The connector tab was closed while it loaded.');
      if (tab.status === 'complete') return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async navigate(tabId: number, url: string, signal: AbortSignal): Promise<string> {
    const tab = await navigateAndWait(tabId, () => chrome.tabs.update(tabId, { url }), signal).catch(
      (error: unknown) => {
        if (signal.aborted) throw error;
        throw new ConnectorError(`The connector tab could not load ${url}: ${(error as Error).message}`);
      },
    );
    return tab.url ?? url;
  }

  async evaluate<Args extends unknown[], R>(
    tabId: number,
    fn: (...args: Args) => R,
    args: Args,
    signal: AbortSignal,
  ): Promise<Awaited<R>> {
    try {
      const [injection] = await raceAbort(
        chrome.scripting.executeScript({
          target: { tabId, frameIds: [0] },
          func: fn as unknown as () => void,
          args: args as unknown as [],
        }),
        signal,
      );
      return injection?.result as Awaited<R>;
    } catch (error) {
      if (signal.aborted) throw error;
      throw new ConnectorError(explainScriptingError(error).message);
    }
  }
}
