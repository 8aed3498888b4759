/**
 * Notices, from `chrome.tabs` and `chrome.webNavigation` events, anything that would make a capture
 * of a tab picture some other document: another tab coming to the front of the window, the tab
 * leaving, or a navigation in any of its frames (same-document URL changes included).
 */
import type { CaptureWatch } from '../mcp-server/browser-port';

interface FrameDetails {
  tabId: number;
  frameId: number;
  documentLifecycle?: string;
}

class ChromeCaptureWatch implements CaptureWatch {
  #changed: string | undefined;
  readonly #removers: Array<() => void> = [];

  constructor(tabId: number, windowId: number) {
    const tabs = chrome.tabs;
    this.#on(tabs.onActivated, (info: chrome.tabs.OnActivatedInfo) => {
      if (info.windowId === windowId) this.#change('another tab became active');
    });
    this.#on(tabs.onUpdated, (id: number, change: chrome.tabs.OnUpdatedInfo) => {
      if (id !== tabId) return;
      if (change.url !== undefined) this.#change('the tab’s address changed');
      // Only a load that begins means a new document; `complete` ends one that was already under way.
      else if (change.status === 'loading') this.#change('the tab began loading');
    });
    this.#on(tabs.onRemoved, (id: number) => id === tabId && this.#change('the tab was closed'));
    this.#on(tabs.onReplaced, (_added: number, removed: number) => {
      if (removed === tabId) this.#change('the tab was replaced');
    });
    this.#on(tabs.onDetached, (id: number) => id === tabId && this.#change('the tab moved to another window'));
    const nav = chrome.webNavigation;
    // Prerendered documents navigate without being on screen.
    const inTab = (details: FrameDetails) => details.tabId === tabId && details.documentLifecycle !== 'prerender';
    const navigated = (details: FrameDetails) => {
      if (!inTab(details)) return;
      this.#change(details.frameId === 0 ? 'the page navigated' : 'a frame in the page navigated');
    };
    this.#on(nav.onCommitted, navigated);
    this.#on(nav.onHistoryStateUpdated, navigated);
    this.#on(nav.onReferenceFragmentUpdated, navigated);
    this.#on(nav.onTabReplaced, (details: { replacedTabId: number }) => {
      if (details.replacedTabId === tabId) this.#change('the tab was replaced');
    });
  }

  get changed(): string | undefined {
    return this.#changed;
  }

  #change(reason: string): void {
    this.#changed ??= reason;
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

export function watchCapture(tabId: number, windowId: number): CaptureWatch {
  return new ChromeCaptureWatch(tabId, windowId);
}
