import { callerTabs } from '../caller-tabs';
import { TabOwnership } from '../tab-ownership';
import { describe, expect, it } from 'vitest';
import { PageCommandError, type ImagePart } from '../browser-port';
import { fakeBrowser, type FakeBrowser } from '../gates/fake-browser';
import { ResponseBuilder } from '../response';
import { SnapshotService, MemoryRefCounters } from '../snapshot-service';
import { PageGuard } from '../page-guard';
import type { PageToolContext } from '../tool';
import { inBackgroundText, screenshot, windowMinimizedText } from './screenshot';

const WINDOW = 7;
const SHOP = 'https://shop.example/cart';
const CHANGED = /^The page changed during the screenshot \((.+)\); nothing was captured — call screenshot again\.$/;

function setUp() {
  const browser = fakeBrowser([
    { id: 1, windowId: WINDOW, url: SHOP, title: 'Cart', active: true, loading: false },
    { id: 2, windowId: WINDOW, url: 'https://bank.example/', title: 'Bank', active: false, loading: false },
  ]);
  browser.viewport = { width: 1000, height: 800, scrollHeight: 4000, y: 0 };
  const composed: ImagePart[][] = [];
  const compose = browser.composeJpeg!.bind(browser);
  browser.composeJpeg = (parts, ...rest) => {
    composed.push(parts);
    return compose(parts, ...rest);
  };
  const checkDestination = async (url: string) =>
    url.startsWith('https://shop.example') ? undefined : 'That site is not allowed.';
  const page = new PageGuard(browser.page, checkDestination);
  const snapshots = new SnapshotService(new MemoryRefCounters());
  const ctx: PageToolContext = {
    signal: new AbortController().signal,
    tab: browser.tabs[0]!,
    windowId: WINDOW,
    browser,
    page,
    snapshots,
    readPage: (tab) => snapshots.capture(page, tab),
    checkDestination,
    isTabVisible: async () => true,
    leave: async () => ({ signal: new AbortController().signal, done: async () => undefined }),
    callerTabs: followingTabs(browser),
  };
  return { browser, ctx, composed };
}

async function take(ctx: PageToolContext, fullPage: boolean) {
  const response = new ResponseBuilder();
  await screenshot.handle({ fullPage }, ctx, response);
  return response.build();
}

async function refusal(ctx: PageToolContext, fullPage: boolean): Promise<string> {
  const error = await take(ctx, fullPage).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(PageCommandError);
  const message = (error as PageCommandError).message;
  expect(message).toMatch(CHANGED);
  return CHANGED.exec(message)![1]!;
}

function switchTo(browser: FakeBrowser, id: number) {
  for (const tab of browser.tabs) tab.active = tab.id === id;
}

describe('screenshot on a page that moves', () => {
  it('takes every segment of a full page when nothing changes, and closes its watch', async () => {
    const { browser, ctx } = setUp();
    const result = await take(ctx, true);
    expect(result.isError).toBeFalsy();
    expect(browser.effects.filter((effect) => effect === 'capture')).toHaveLength(5);
    expect(browser.openWatches).toBe(0);
  });

  it('stops when the watch sees another tab become active during a capture', async () => {
    const { browser, ctx } = setUp();
    browser.onCapture = (count) => {
      if (count === 2) browser.captureChange = 'another tab became active';
    };
    expect(await refusal(ctx, true)).toBe('another tab became active');
    expect(browser.effects.filter((effect) => effect === 'capture')).toHaveLength(2);
    expect(browser.openWatches).toBe(0);
  });

  it('stops when another tab is in front after a capture, even if no event said so', async () => {
    const { browser, ctx } = setUp();
    browser.onCapture = (count) => count === 3 && switchTo(browser, 2);
    expect(await refusal(ctx, true)).toBe('another tab became active');
  });

  it('stops when the tab’s address changed, or left the allowed sites, between captures', async () => {
    const moved = setUp();
    moved.browser.onCapture = () => (moved.browser.tabs[0]!.url = `${SHOP}#step-2`);
    expect(await refusal(moved.ctx, true)).toBe('the tab’s address changed');
    const away = setUp();
    away.browser.onCapture = () => (away.browser.tabs[0]!.url = 'https://bank.example/');
    expect(await refusal(away.ctx, false)).toBe('the tab is on a site that is not allowed');
  });

  it('stops when the watch saw a navigation during the only capture of the visible part', async () => {
    const { browser, ctx } = setUp();
    browser.onCapture = () => (browser.captureChange = 'a frame in the page navigated');
    expect(await refusal(ctx, false)).toBe('a frame in the page navigated');
  });

  it('says the page changed when Chrome fails a capture because the tab navigated', async () => {
    const { browser, ctx } = setUp();
    browser.captureVisible = async () => {
      browser.captureChange = 'the page navigated';
      throw new Error('Failed to capture tab: image readback failed');
    };
    expect(await refusal(ctx, false)).toBe('the page navigated');
    const steady = setUp();
    steady.browser.captureVisible = async () => {
      throw new Error('Failed to capture tab: image readback failed');
    };
    await expect(take(steady.ctx, false)).rejects.toThrow('image readback failed');
  });

  it('does not start when the tab is no longer in front', async () => {
    const { browser, ctx } = setUp();
    switchTo(browser, 2);
    expect(await refusal(ctx, false)).toBe('another tab became active');
    expect(browser.effects).not.toContain('capture');
  });

  it('scrolls the page back after stopping', async () => {
    const { browser, ctx } = setUp();
    browser.onCapture = (count) => count === 2 && (browser.captureChange = 'the page navigated');
    await refusal(ctx, true);
    expect(browser.viewport!.y).toBe(0);
  });
});

describe('screenshot of a tab of the caller’s own', () => {
  /** Ctx for a caller that owns tab 3 (on the allowed shop) and works in it; tab 1 stays in front of WINDOW. */
  function ownTab(place: { windowId: number; active: boolean }) {
    const { browser, ctx } = setUp();
    const tab = { id: 3, url: `${SHOP}?page=2`, title: 'Cart, page 2', loading: false, ...place };
    browser.tabs.push(tab);
    const ownership = new TabOwnership();
    ownership.opened(3, 'agent', true);
    const tabs = callerTabs({
      caller: { id: 'agent', label: 'Agent' },
      ownership,
      follows: false,
      browser,
      windowId: WINDOW,
      actMode: () => true,
    });
    const windows: number[] = [];
    const captureVisible = browser.captureVisible.bind(browser);
    browser.captureVisible = (windowId, quality) => {
      windows.push(windowId);
      return captureVisible(windowId, quality);
    };
    return { browser, windows, ctx: { ...ctx, tab, callerTabs: tabs } };
  }

  it('refuses a tab in the background, saying so, rather than picture the tab in front', async () => {
    const { browser, ctx } = ownTab({ windowId: WINDOW, active: false });
    const result = await take(ctx, false);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: inBackgroundText(3) }]);
    expect(inBackgroundText(3)).toContain('Use snapshot');
    expect(browser.effects).not.toContain('capture');
    expect(browser.openWatches).toBe(0);
  });

  it('pictures it where it is in front, in its own window even when that is not the panel’s', async () => {
    const { browser, ctx, windows } = ownTab({ windowId: 9, active: true });
    const result = await take(ctx, false);
    expect(result.isError).toBeFalsy();
    expect(browser.effects).toContain('capture');
    expect(windows).toEqual([9]);
  });

  it('refuses the front tab of a minimized window, saying why and what the user can do', async () => {
    const { browser, ctx } = ownTab({ windowId: 9, active: true });
    browser.windowShown = async (windowId) => windowId !== 9;
    const result = await take(ctx, false);
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: windowMinimizedText(3) }]);
    expect(windowMinimizedText(3)).toContain('restore the window');
    expect(browser.effects).not.toContain('capture');
  });
});

describe('screenshot masks', () => {
  const frames = [
    { frameId: 0, parentFrameId: -1, url: SHOP },
    { frameId: 4, parentFrameId: 0, url: 'https://bank.example/card' },
  ];
  const refusedAt = (y: number) => ({
    viewport: { width: 1000, height: 800 },
    frames: [{ box: { x: 10, y, width: 300, height: 200 }, content: { x: 10, y, width: 300, height: 200 } }],
  });

  it('hands the refused frames’ rectangles to the encoder for the visible part', async () => {
    const { browser, ctx, composed } = setUp();
    browser.frameList = frames;
    browser.frameRects.set(0, refusedAt(50));
    const result = await take(ctx, false);
    expect(result.isError).toBeFalsy();
    expect(composed).toHaveLength(1);
    expect(composed[0]![0]!.masks).toEqual({
      viewportWidth: 1000,
      rects: [{ x: 10, y: 50, width: 300, height: 200 }],
    });
  });

  /** A refused frame at 1000px down the page: the top frame's reply follows the scroll position. */
  function refusedFrameAt1000(browser: FakeBrowser) {
    browser.frameList = frames;
    const send = browser.page.send.bind(browser.page);
    const afterFrames: number[] = [];
    browser.page.send = (tabId, command, options) => {
      if (command.op === 'frameRects') {
        browser.frameRects.set(0, refusedAt(1000 - browser.viewport!.y));
        afterFrames.push(command.afterFrames ?? 0);
      }
      return send(tabId, command, options);
    };
    return afterFrames;
  }

  it('measures masks for every full-page segment, around each capture, once each scroll has been drawn', async () => {
    const { browser, ctx, composed } = setUp();
    const afterFrames = refusedFrameAt1000(browser);
    browser.captureData = (count) => `/9j/${'A'.repeat(count * 4)}`;
    await take(ctx, true);
    const masks = composed[0]!.map((part) => part.masks?.rects.map((rect) => rect.y));
    expect(masks).toEqual([undefined, [200], undefined, undefined, undefined]);
    // Before each capture the page lets a few frames pass after the scroll; after it, it need not.
    expect(afterFrames).toEqual([3, 0, 3, 0, 3, 0, 3, 0, 3, 0]);
  });

  it('keeps the last position’s masks on a capture that is the same picture as the last one', async () => {
    const { browser, ctx, composed } = setUp();
    refusedFrameAt1000(browser);
    browser.captureData = (count) => (count === 3 ? `/9j/${'A'.repeat(8)}` : `/9j/${'A'.repeat(count * 4)}`);
    await take(ctx, true);
    const masks = composed[0]!.map((part) => part.masks?.rects.map((rect) => rect.y));
    expect(masks).toEqual([undefined, [200], [200], undefined, undefined]);
  });

  it('stops when a frame element appears or goes between measuring and capturing', async () => {
    const { browser, ctx } = setUp();
    browser.frameList = frames;
    browser.frameRects.set(0, refusedAt(50));
    browser.onCapture = () => browser.frameRects.set(0, { viewport: { width: 1000, height: 800 }, frames: [] });
    expect(await refusal(ctx, false)).toBe('frames came or went');
  });
});

/** The tabs of a caller that works in whatever tab is in front, as tools did before tabs were owned. */
function followingTabs(browser: Parameters<typeof callerTabs>[0]['browser']) {
  return callerTabs({
    caller: { id: 'agent', label: 'Agent' },
    ownership: undefined,
    follows: true,
    browser,
    windowId: 1,
    actMode: () => true,
  });
}
