/**
 * A tab's top-frame navigations as `chrome.webNavigation` reports them (and the tabs it opens, from
 * `chrome.tabs.onCreated`), fed to the pure NavigationTracker.
 */
import type { NavigationWatch } from '../mcp-server/browser-port';
import { NavigationTracker } from '../mcp-server/navigation-tracker';

interface FrameDetails {
  tabId: number;
  frameId: number;
  url: string;
  documentLifecycle?: string;
}

/** Records a tab's top-frame navigations from now on; `dispose()` removes the listeners. */
class ChromeNavigationWatch extends NavigationTracker implements NavigationWatch {
  readonly #removers: Array<() => void> = [];

  constructor(private readonly tabId: number) {
    super();
    const nav = chrome.webNavigation;
    // Prerendered pages report navigations of documents that are not (yet) the tab's.
    const top = (details: FrameDetails) =>
      details.tabId === tabId && details.frameId === 0 && details.documentLifecycle !== 'prerender';
    this.#on(nav.onBeforeNavigate, (d: FrameDetails) => top(d) && this.record({ kind: 'before', url: d.url }));
    this.#on(nav.onCommitted, (d: FrameDetails) => top(d) && this.record({ kind: 'committed', url: d.url }));
    this.#on(nav.onCompleted, (d: FrameDetails) => top(d) && this.record({ kind: 'completed', url: d.url }));
    this.#on(
      nav.onErrorOccurred,
      (d: FrameDetails & { error: string }) => top(d) && this.record({ kind: 'error', url: d.url, error: d.error }),
    );
    const sameDocument = (d: FrameDetails) => top(d) && this.record({ kind: 'same-document', url: d.url });
    this.#on(nav.onHistoryStateUpdated, sameDocument);
    this.#on(nav.onReferenceFragmentUpdated, sameDocument);
    this.#on(chrome.tabs.onCreated, (tab: chrome.tabs.Tab) => {
      if (tab.openerTabId === this.tabId && tab.id !== undefined) this.record({ kind: 'opened-tab', tabId: tab.id });
    });
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- chrome.events.Event's own constraint
  #on<L extends (...args: any) => void>(event: chrome.events.Event<L>, listener: L): void {
    event.addListener(listener);
    this.#removers.push(() => event.removeListener(listener));
  }

  dispose(): void {
    for (const remove of this.#removers.splice(0)) remove();
  }
}

export function watchTabNavigation(tabId: number): NavigationWatch {
  return new ChromeNavigationWatch(tabId);
}
