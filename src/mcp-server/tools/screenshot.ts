/**
 * A JPEG of the tab (~q70), scaled down until the result fits the tunnel's cap. Full-page pictures
 * are stitched from viewport captures (Chrome allows about two captures a second).
 */
import { z } from 'zod';
import type { ImagePart, ToolBrowser } from '../browser-port';
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

async function fullPageParts(ctx: PageToolContext) {
  const tabId = ctx.tab.id;
  const page = ctx.page;
  const start = await page.run(tabId, { op: 'viewport' }, { signal: ctx.signal, frameId: 0 });
  const steps = Math.min(MAX_SEGMENTS, Math.max(1, Math.ceil(start.scrollHeight / start.height)));
  const parts: ImagePart[] = [];
  try {
    for (let i = 0; i < steps; i++) {
      const y = Math.min(i * start.height, Math.max(0, start.scrollHeight - start.height));
      const at = await page.run(
        tabId,
        { op: 'viewport', scrollTo: { x: start.x, y } },
        { signal: ctx.signal, frameId: 0 },
      );
      parts.push({
        data: await capture(ctx.browser, ctx.windowId, ctx.signal),
        top: Math.round(at.y * at.devicePixelRatio),
      });
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
    'user has turned screenshots on. Prefer snapshot for reading and acting; use this to check layout or images.',
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
    let parts: ImagePart[];
    let size: { width: number; height: number } | undefined;
    let cut = false;
    if (args.fullPage) ({ parts, size, cut } = await fullPageParts(ctx));
    else parts = [{ data: await capture(browser, ctx.windowId, ctx.signal), top: 0 }];
    let scale = size ? Math.min(1, MAX_SIDE / Math.max(size.width, size.height)) : 1;
    let image =
      parts.length === 1 && scale === 1
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
