/**
 * A JPEG of the tab (~q70), scaled down until the result fits the tunnel's cap. Full-page pictures
 * are stitched from viewport captures (Chrome allows about two captures a second).
 *
 * Chrome captures whatever the window shows, so a caller's own tab that is in the background is
 * refused before anything is captured, and every capture is bracketed: before and after it the
 * window's active tab must still be this tab, on the same allowed URL, and a watch started
 * before the first capture must have seen no tab switch and no navigation in any frame. Otherwise
 * nothing captured is returned. Frames the gates refuse are painted over before encoding.
 */
import { z } from 'zod';
import { PageErrorCode } from '../../page/error-codes';
import { PageCommandError, type CaptureWatch, type ImagePart, type ToolBrowser } from '../browser-port';
import { FrameMasker, mergeMasks, type Masks } from '../capture-masks';
import { isRefusal } from '../page-guard';
import { RESULT_CAP_BYTES } from '../response';
import { defineTool, type PageToolContext } from '../tool';

export const QUALITY = 70;
/** Room for the JSON envelope and the text block around the image. */
const ENVELOPE_BYTES = 4 * 1024;
/** Canvas sides stay below Chrome's limits. */
const MAX_SIDE = 16_000;
const MAX_SEGMENTS = 20;
const CAPTURE_RETRY_MS = 600;
export const SCREENSHOTS_OFF = 'Screenshots are off; ask the user to turn them on in Tabwright settings.';
export const CANNOT_WATCH =
  'This browser cannot watch the tab while capturing it, so Tabwright takes no screenshots here.';

/** Chrome pictures only the tab a window shows: an own tab behind another one cannot be captured. */
export function inBackgroundText(tabId: number): string {
  return (
    `Tab ${tabId} is one of your tabs but is in the background, and Chrome can only take a picture of the tab ` +
    'a window shows, so nothing was captured. Use snapshot to read the page; or open the page in your own ' +
    'window (new_tab with ownWindow: true), whose tab is shown without taking the user’s focus, and take the ' +
    'screenshot there; or ask the user to bring the tab to the front and call screenshot again.'
  );
}

/** A minimized window shows nothing, so even its front tab cannot be pictured. */
export function windowMinimizedText(tabId: number): string {
  return (
    `Tab ${tabId} is the tab its window shows, but that window is minimized, and Chrome can only take a picture ` +
    'of what a window shows, so nothing was captured. Use snapshot to read the page, or ask the user to restore ' +
    'the window (without switching to it) and call screenshot again.'
  );
}

export function pageChanged(reason: string): PageCommandError {
  return new PageCommandError(
    `The page changed during the screenshot (${reason}); nothing was captured — call screenshot again.`,
    'page-changed',
  );
}

/** Holds a capture to the tab and URL it started on. */
class CaptureGuard {
  #url: string | undefined;

  constructor(
    private readonly ctx: PageToolContext,
    private readonly watch: CaptureWatch,
  ) {}

  async check(): Promise<void> {
    if (this.watch.changed) throw pageChanged(this.watch.changed);
    const active = await this.ctx.browser.activeTab(this.ctx.tab.windowId);
    if (this.watch.changed) throw pageChanged(this.watch.changed);
    if (!active || active.id !== this.ctx.tab.id) throw pageChanged('another tab became active');
    if (!active.url || (await this.ctx.checkDestination(active.url)) !== undefined)
      throw pageChanged('the tab is on a site that is not allowed');
    this.#url ??= active.url;
    if (active.url !== this.#url) throw pageChanged('the tab’s address changed');
  }
}

type Shoot = (afterScroll?: boolean) => Promise<Omit<ImagePart, 'top'>>;

/** One viewport capture, checked on both sides, with the refused frames it shows. */
function shooter(ctx: PageToolContext, guard: CaptureGuard): Shoot {
  const allowed = async (url: string) => (await ctx.checkDestination(url)) === undefined;
  const masker = new FrameMasker(ctx.page, ctx.tab.id, allowed, ctx.signal);
  let previous: { data: string; masks: Masks } | undefined;
  return async (afterScroll = false) => {
    await guard.check();
    const before = await masker.measure({ afterScroll });
    // The tab's own window: a tab of the caller's may have been moved to another one.
    const data = await capture(ctx.browser, ctx.tab.windowId, ctx.signal).catch(async (error: unknown) => {
      // Chrome fails a capture of a tab that is navigating or going away: say what happened, if that is it.
      await guard.check();
      throw error;
    });
    const after = await masker.measure();
    await guard.check();
    let masks = mergeMasks(before, after);
    if (!masks) throw pageChanged('frames came or went');
    // The very picture of the last position: the scroll had not reached the screen (or the page
    // looks the same there), so the frames may still be where they were.
    if (previous && data === previous.data && previous.masks.rects.length) {
      masks = {
        viewportWidth: masks.viewportWidth || previous.masks.viewportWidth,
        rects: [...masks.rects, ...previous.masks.rects],
      };
    }
    previous = { data, masks };
    return masks.rects.length ? { data, masks } : { data };
  };
}

async function capture(browser: ToolBrowser, windowId: number, signal: AbortSignal): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await browser.captureVisible(windowId, QUALITY);
    } catch (error) {
      // Chrome refuses more than two captures a second; wait out the quota and try again.
      if (attempt >= 5 || !/MAX_CAPTURE_VISIBLE_TAB_CALLS_PER_SECOND/.test(String(error))) throw error;
      await new Promise((resolve) => setTimeout(resolve, CAPTURE_RETRY_MS));
      signal.throwIfAborted();
    }
  }
}

async function fullPageParts(ctx: PageToolContext, guard: CaptureGuard, shoot: Shoot) {
  const tabId = ctx.tab.id;
  const page = ctx.page;
  const start = await page.run(tabId, { op: 'viewport' }, { signal: ctx.signal, frameId: 0 });
  const steps = Math.min(MAX_SEGMENTS, Math.max(1, Math.ceil(start.scrollHeight / start.height)));
  const parts: ImagePart[] = [];
  try {
    for (let i = 0; i < steps; i++) {
      const y = Math.min(i * start.height, Math.max(0, start.scrollHeight - start.height));
      // Not even a scroll goes to a document that replaced the one being captured.
      await guard.check();
      const at = await page.run(
        tabId,
        { op: 'viewport', scrollTo: { x: start.x, y } },
        { signal: ctx.signal, frameId: 0 },
      );
      parts.push({ ...(await shoot(true)), top: Math.round(at.y * at.devicePixelRatio) });
    }
  } finally {
    await page
      .run(tabId, { op: 'viewport', scrollTo: { x: start.x, y: start.y } }, { frameId: 0 })
      .catch(() => undefined);
  }
  const covered = Math.min(start.scrollHeight, steps * start.height);
  const size = {
    width: Math.round(start.width * start.devicePixelRatio),
    height: Math.round(covered * start.devicePixelRatio),
  };
  return { parts, size, cut: covered < start.scrollHeight };
}

export const screenshot = defineTool({
  name: 'screenshot',
  title: 'Screenshot',
  description:
    'Take a JPEG picture of the current tab (the visible part, or the whole page with fullPage). Only when the ' +
    'user has turned screenshots on, and only while the tab is the one its window shows: a tab in the ' +
    'background cannot be pictured, the tab of your own window (new_tab with ownWindow) can. Prefer snapshot ' +
    'for reading and acting; use this to check layout or images.',
  effect: 'read',
  scope: 'page',
  capturesScreen: true,
  input: z.object({
    fullPage: z.boolean().default(false).describe('The whole scrolling page instead of the visible part'),
  }),
  async handle(args, ctx, response) {
    const browser = ctx.browser;
    if (!browser.canCaptureScreenshots || !browser.composeJpeg || !(await browser.canCaptureScreenshots())) {
      response.error(SCREENSHOTS_OFF);
      return;
    }
    if (!browser.watchCapture) {
      response.error(CANNOT_WATCH);
      return;
    }
    if (!ctx.callerTabs.follows) {
      // Bringing the tab forward would change what the person sees; the caller is told instead. The
      // front tab of a window that is open but not focused (the agent's own) is shown, so it can be captured.
      const shown = await browser.activeTab(ctx.tab.windowId);
      if (shown?.id !== ctx.tab.id) {
        response.error(inBackgroundText(ctx.tab.id));
        return;
      }
      if (browser.windowShown && !(await browser.windowShown(ctx.tab.windowId))) {
        response.error(windowMinimizedText(ctx.tab.id));
        return;
      }
    }
    let parts: ImagePart[];
    let size: { width: number; height: number } | undefined;
    let cut = false;
    const watch = browser.watchCapture(ctx.tab.id, ctx.tab.windowId);
    try {
      const guard = new CaptureGuard(ctx, watch);
      const shoot = shooter(ctx, guard);
      if (args.fullPage) ({ parts, size, cut } = await fullPageParts(ctx, guard, shoot));
      else parts = [{ ...(await shoot()), top: 0 }];
      // An event Chrome delivered after the last capture's check still counts.
      if (watch.changed) throw pageChanged(watch.changed);
    } catch (error) {
      // The page guard refused a document mid-capture, or the measured one went away: the page moved.
      if (isRefusal(error)) throw pageChanged(watch.changed ?? 'the tab is on a site that is not allowed');
      if (error instanceof PageCommandError && error.code === PageErrorCode.FrameGone) {
        throw pageChanged(watch.changed ?? 'the page navigated');
      }
      throw error;
    } finally {
      watch.dispose();
    }
    const masked = parts.some((part) => part.masks?.rects.length);
    let scale = size ? Math.min(1, MAX_SIDE / Math.max(size.width, size.height)) : 1;
    let image =
      parts.length === 1 && scale === 1 && !masked
        ? { data: parts[0]!.data, width: 0, height: 0 }
        : await browser.composeJpeg(parts, size, scale, QUALITY);
    const budget = RESULT_CAP_BYTES - ENVELOPE_BYTES;
    while (image.data.length > budget) {
      ctx.signal.throwIfAborted();
      // JPEG size grows with area, so shrink both sides by the square root of the excess, plus a margin.
      scale *= Math.min(0.9, Math.sqrt(budget / image.data.length) * 0.95);
      image = await browser.composeJpeg(parts, size, scale, QUALITY);
    }
    const scaled = scale < 1 ? `, scaled to ${Math.round(scale * 100)}%` : '';
    const note = cut ? ` Only the first ${MAX_SEGMENTS} screens of the page are included.` : '';
    response.text(
      `Screenshot of the ${args.fullPage ? 'whole page' : 'visible part of the tab'} (JPEG${scaled}).${note}`,
    );
    response.image(image.data, 'image/jpeg');
  },
});
