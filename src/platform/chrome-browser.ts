/**
 * The browser as tools see it (`BrowserPort`), implemented over `chrome.tabs` and
 * `chrome.webNavigation`. Navigation waits follow the top frame's webNavigation events rather than
 * the tab's loading status, so same-document navigations (a fragment, pushState, history inside a
 * single-page app) end the wait too, and a failed load says why.
 */
import {
  PageCommandError,
  tabGone,
  type BrowserPort,
  type CaptureWatch,
  type ImagePart,
  type NavigationWatch,
  type TabInfo,
} from '../mcp-server/browser-port';
import type { SettleOutcome } from '../mcp-server/navigation-tracker';
import { canCaptureScreenshots, composeJpeg } from './chrome-capture';
import { watchCapture } from './chrome-capture-watch';
import { watchTabNavigation } from './chrome-navigation-watch';
import { ChromePageTransport } from './chrome-page';
import { raceAbort } from '../shared/race-abort';

export const LOAD_TIMEOUT_MS = 15_000;
/** How long the browser gets to report a navigation we just asked for before we conclude none began. */
export const NAVIGATION_START_MS = 1_500;

function toInfo(tab: chrome.tabs.Tab): TabInfo {
  return {
    id: tab.id ?? -1,
    windowId: tab.windowId,
    url: tab.url || tab.pendingUrl,
    title: tab.title,
    active: tab.active,
    loading: tab.status === 'loading',
  };
}

async function currentTab(tabId: number): Promise<TabInfo> {
  const tab = await chrome.tabs.get(tabId).catch(() => undefined);
  if (!tab) throw tabGone();
  return toInfo(tab);
}

/**
 * Starts a navigation with `start()` and waits (bounded) until the tab's top frame has finished it.
 * The watch is in place before the navigation begins, so a fast load cannot slip past it. Returns
 * the tab and how the wait ended ('none' when no navigation began at all).
 */
export async function followNavigation(
  tabId: number,
  start: () => Promise<unknown>,
  signal: AbortSignal,
  timeoutMs = LOAD_TIMEOUT_MS,
): Promise<{ tab: TabInfo; outcome: SettleOutcome }> {
  const watch = watchTabNavigation(tabId);
  try {
    await start();
    const outcome = await watch.settled({ expectStartMs: NAVIGATION_START_MS, timeoutMs }, signal);
    if (outcome === 'failed') {
      throw new PageCommandError(`The page failed to load (${watch.error}).`, 'load-failed');
    }
    return { tab: await currentTab(tabId), outcome };
  } finally {
    watch.dispose();
  }
}

/** `followNavigation`, for callers that only need the tab afterwards. */
export async function navigateAndWait(
  tabId: number,
  start: () => Promise<unknown>,
  signal: AbortSignal,
  timeoutMs = LOAD_TIMEOUT_MS,
): Promise<TabInfo> {
  return (await followNavigation(tabId, start, signal, timeoutMs)).tab;
}

/**
 * Creates a tab with `create` and waits (bounded) for its first load. The new tab's id is only
 * known once `create()` answers, so completions are collected from the start and matched afterwards.
 */
async function createAndLoad(create: () => Promise<chrome.tabs.Tab>, signal?: AbortSignal): Promise<TabInfo> {
  const completed = new Set<number>();
  let createdId: number | undefined;
  let loaded!: () => void;
  const load = new Promise<void>((resolve) => (loaded = resolve));
  const listener = (id: number, change: chrome.tabs.OnUpdatedInfo) => {
    if (change.status !== 'complete') return;
    completed.add(id);
    if (id === createdId) loaded();
  };
  chrome.tabs.onUpdated.addListener(listener);
  try {
    const created = await create();
    createdId = created.id;
    const current = created.id === undefined ? undefined : await chrome.tabs.get(created.id).catch(() => undefined);
    const done =
      createdId !== undefined && (completed.has(createdId) || (current?.status === 'complete' && !!current.url));
    if (!done) {
      const timeout = new Promise<void>((resolve) => setTimeout(resolve, LOAD_TIMEOUT_MS));
      await raceAbort(Promise.race([load, timeout]), signal ?? AbortSignal.timeout(LOAD_TIMEOUT_MS + 1_000));
    }
    return createdId === undefined ? toInfo(created) : await currentTab(createdId);
  } finally {
    chrome.tabs.onUpdated.removeListener(listener);
  }
}

export class ChromeBrowser implements BrowserPort {
  readonly page = new ChromePageTransport();

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

  /** Opens a tab and, with a URL, waits (bounded) for its first load. */
  async createTab(
    options: { url?: string; active: boolean; windowId: number },
    signal?: AbortSignal,
  ): Promise<TabInfo> {
    if (!options.url) return toInfo(await chrome.tabs.create({ active: options.active, windowId: options.windowId }));
    const url = options.url;
    return createAndLoad(() => chrome.tabs.create({ url, active: options.active, windowId: options.windowId }), signal);
  }

  async openInUnfocusedWindow(options: { url?: string; windowId?: number }, signal?: AbortSignal): Promise<TabInfo> {
    const { windowId } = options;
    if (windowId !== undefined) {
      // Created in the background and then shown: a tab created active raises and focuses its window.
      const url = options.url !== undefined ? { url: options.url } : {};
      const created = options.url
        ? await createAndLoad(() => chrome.tabs.create({ ...url, active: false, windowId }), signal)
        : toInfo(await chrome.tabs.create({ active: false, windowId }));
      const shown = await chrome.tabs.update(created.id, { active: true }).catch(() => undefined);
      if (!shown) throw tabGone();
      return toInfo(shown);
    }
    const open = async () => {
      const window = await chrome.windows.create({
        ...(options.url ? { url: options.url } : {}),
        focused: false,
        type: 'normal',
        state: 'normal',
      });
      const tab = window?.tabs?.[0];
      if (!tab) throw new PageCommandError('Chrome did not open a window.', 'tab-gone');
      return tab;
    };
    if (!options.url) return toInfo(await open());
    return createAndLoad(open, signal);
  }

  async windowShown(windowId: number): Promise<boolean> {
    const window = await chrome.windows.get(windowId).catch(() => undefined);
    return !!window && window.state !== 'minimized';
  }

  async activateTab(tabId: number): Promise<TabInfo> {
    const tab = await chrome.tabs.update(tabId, { active: true }).catch(() => undefined);
    if (!tab) throw new PageCommandError(`No tab with id ${tabId}.`, 'tab-gone');
    await chrome.windows.update(tab.windowId, { focused: true }).catch(() => undefined);
    return toInfo(tab);
  }

  async closeTab(tabId: number): Promise<void> {
    await chrome.tabs.remove(tabId).catch(() => {
      throw new PageCommandError(`No tab with id ${tabId}.`, 'tab-gone');
    });
  }

  navigate(tabId: number, url: string, signal: AbortSignal): Promise<TabInfo> {
    return navigateAndWait(tabId, () => chrome.tabs.update(tabId, { url }), signal);
  }

  /**
   * One step back or forward. Chrome answers a step past either end of the history by doing nothing,
   * so "nothing began" is how the end of the history shows.
   */
  async goHistory(tabId: number, direction: 'back' | 'forward', signal: AbortSignal): Promise<TabInfo> {
    const step = () => (direction === 'back' ? chrome.tabs.goBack(tabId) : chrome.tabs.goForward(tabId));
    let result: Awaited<ReturnType<typeof followNavigation>>;
    try {
      result = await followNavigation(tabId, step, signal);
    } catch (error) {
      if (error instanceof PageCommandError || signal.aborted) throw error;
      throw historyEnd(direction);
    }
    if (result.outcome === 'none') throw historyEnd(direction);
    return result.tab;
  }

  reload(tabId: number, bypassCache: boolean, signal: AbortSignal): Promise<TabInfo> {
    return navigateAndWait(tabId, () => chrome.tabs.reload(tabId, { bypassCache }), signal);
  }

  watchNavigation(tabId: number): NavigationWatch {
    return watchTabNavigation(tabId);
  }

  watchCapture(tabId: number, windowId: number): CaptureWatch {
    return watchCapture(tabId, windowId);
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

function historyEnd(direction: 'back' | 'forward'): PageCommandError {
  return direction === 'back'
    ? new PageCommandError(
        'There is no earlier page in this tab’s history: it is already at the start. Nothing happened.',
        'history-end',
      )
    : new PageCommandError(
        'There is no later page in this tab’s history: it is already at the end. Nothing happened.',
        'history-end',
      );
}
