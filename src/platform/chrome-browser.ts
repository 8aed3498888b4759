/** The browser as tools see it (`BrowserPort`), implemented over `chrome.tabs`. */
import { PageCommandError, type BrowserPort, type ImagePart, type TabInfo } from '../mcp-server/browser-port';
import { canCaptureScreenshots, composeJpeg } from './chrome-capture';
import { ChromePagePort } from './chrome-page';

export const LOAD_TIMEOUT_MS = 15_000;

function toInfo(tab: chrome.tabs.Tab): TabInfo {
  return {
    id: tab.id ?? -1,
    windowId: tab.windowId,
    url: tab.url ?? tab.pendingUrl,
    title: tab.title,
    active: tab.active,
    loading: tab.status === 'loading',
  };
}

/**
 * Resolves when the tab finishes loading after `start()` began a navigation. The listener is in
 * place before the navigation starts, so a fast load cannot slip past it; the wait is bounded.
 */
export async function navigateAndWait(
  tabId: number,
  start: () => Promise<unknown>,
  signal: AbortSignal,
  timeoutMs = LOAD_TIMEOUT_MS,
): Promise<TabInfo> {
  let done!: () => void;
  const loaded = new Promise<void>((resolve) => (done = resolve));
  let sawLoading = false;
  const listener = (id: number, change: chrome.tabs.OnUpdatedInfo) => {
    if (id !== tabId) return;
    if (change.status === 'loading') sawLoading = true;
    if (change.status === 'complete' && sawLoading) done();
  };
  chrome.tabs.onUpdated.addListener(listener);
  try {
    await start();
    const timeout = new Promise<void>((resolve) => setTimeout(resolve, timeoutMs));
    const aborted = new Promise<never>((_, reject) => {
      if (signal.aborted) reject(signal.reason);
      signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    });
    await Promise.race([loaded, timeout, aborted]);
  } finally {
    chrome.tabs.onUpdated.removeListener(listener);
  }
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  if (!tab) throw new PageCommandError('The tab was closed while it loaded.', 'tab-gone');
  return toInfo(tab);
}

export class ChromeBrowser implements BrowserPort {
  readonly page = new ChromePagePort();

  async getTab(tabId: number): Promise<TabInfo | undefined> {
    return chrome.tabs.get(tabId).then(toInfo, () => undefined);
  }

  async activeTab(windowId: number): Promise<TabInfo | undefined> {
    const [tab] = await chrome.tabs.query({ active: true, windowId });
    return tab ? toInfo(tab) : undefined;
  }

  async listTabs(): Promise<TabInfo[]> {
    return (await chrome.tabs.query({})).map(toInfo);
  }

  async createTab(options: { url?: string; active: boolean; windowId: number }): Promise<TabInfo> {
    if (!options.url) return toInfo(await chrome.tabs.create({ active: options.active, windowId: options.windowId }));
    let created: chrome.tabs.Tab | undefined;
    const signal = AbortSignal.timeout(LOAD_TIMEOUT_MS + 1_000);
    // The tab id is only known after create(), so wait on any load of the new tab.
    const tab = await new Promise<chrome.tabs.Tab>((resolve, reject) => {
      const listener = (id: number, change: chrome.tabs.OnUpdatedInfo, updated: chrome.tabs.Tab) => {
        if (created && id === created.id && change.status === 'complete') finish(updated);
      };
      const timer = setTimeout(() => created && finish(created), LOAD_TIMEOUT_MS);
      const finish = (value: chrome.tabs.Tab) => {
        clearTimeout(timer);
        chrome.tabs.onUpdated.removeListener(listener);
        resolve(value);
      };
      chrome.tabs.onUpdated.addListener(listener);
      chrome.tabs.create({ url: options.url, active: options.active, windowId: options.windowId }).then(
        (value) => (created = value),
        (error: unknown) => {
          clearTimeout(timer);
          chrome.tabs.onUpdated.removeListener(listener);
          reject(error);
        },
      );
      signal.addEventListener('abort', () => created && finish(created));
    });
    return toInfo(tab);
  }

  async activateTab(tabId: number): Promise<TabInfo> {
    const tab = await chrome.tabs.update(tabId, { active: true });
    if (!tab) throw new PageCommandError(`No tab with id ${tabId}.`, 'tab-gone');
    await chrome.windows.update(tab.windowId, { focused: true }).catch(() => undefined);
    return toInfo(tab);
  }

  async closeTab(tabId: number): Promise<void> {
    await chrome.tabs.remove(tabId);
  }

  navigate(tabId: number, url: string, signal: AbortSignal): Promise<TabInfo> {
    return navigateAndWait(tabId, () => chrome.tabs.update(tabId, { url }), signal);
  }

  goHistory(tabId: number, direction: 'back' | 'forward', signal: AbortSignal): Promise<TabInfo> {
    return navigateAndWait(
      tabId,
      () => (direction === 'back' ? chrome.tabs.goBack(tabId) : chrome.tabs.goForward(tabId)),
      signal,
    );
  }

  reload(tabId: number, bypassCache: boolean, signal: AbortSignal): Promise<TabInfo> {
    return navigateAndWait(tabId, () => chrome.tabs.reload(tabId, { bypassCache }), signal);
  }

  async captureVisible(windowId: number, quality: number): Promise<string> {
    const dataUrl = await chrome.tabs.captureVisibleTab(windowId, { format: 'jpeg', quality });
    return dataUrl.slice(dataUrl.indexOf(',') + 1);
  }

  canCaptureScreenshots(): Promise<boolean> {
    return canCaptureScreenshots();
  }

  composeJpeg(
    parts: ImagePart[],
    size: { width: number; height: number } | undefined,
    scale: number,
    quality: number,
  ): Promise<{ data: string; width: number; height: number }> {
    return composeJpeg(parts, size, scale, quality);
  }
}
