import { rmSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { startPerception, textOf, type Perception, type ToolResult } from './perception-setup';
import { countColours, distWithAllUrls, image, turnScreenshotsOn } from './screenshot-setup';

const CHANGED = /the page changed during the screenshot .*nothing was captured — call screenshot again/i;

const COLOURS = {
  allowedTop: [0, 200, 0],
  allowedFrame: [255, 220, 0],
  refused: [255, 0, 255],
  refusedBlank: [0, 255, 255],
  refusedNested: [255, 128, 0],
  refusedInShadow: [0, 0, 255],
  mask: [95, 99, 104],
} satisfies Record<string, [number, number, number]>;

function expectNothingCaptured(result: ToolResult): void {
  expect(result.isError).toBe(true);
  expect(textOf(result)).toMatch(CHANGED);
  expect(result.content.some((part) => part.type === 'image')).toBe(false);
}

describe('screenshots of a page that moves, or holds frames that are not allowed', () => {
  let p: Perception;
  let dist: string;
  /** A second allowed site, for an allowed frame from another origin. */
  let elsewhere: FixtureServer;

  beforeAll(async () => {
    dist = distWithAllUrls();
    elsewhere = await startFixtureServer();
    p = await startPerception({ dist });
    await p.allow(p.fixtures.allowed);
    await p.allow(elsewhere.allowed);
    await turnScreenshotsOn(p);
  });
  afterAll(async () => {
    await p?.close();
    await elsewhere?.close();
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  /** Starts a full-page screenshot of `page` and runs `interfere` once it has scrolled past the first screen. */
  async function interruptedFullPage(page: Page, interfere: () => Promise<unknown>): Promise<ToolResult> {
    const pending = p.call('screenshot', { fullPage: true });
    await page.waitForFunction(() => scrollY > 0, undefined, { timeout: 30_000, polling: 10 });
    await interfere();
    return pending;
  }

  it('stops, returning nothing, when another tab comes to the front during a full-page screenshot', async () => {
    const page = await p.open('/perception/long.html');
    const other = await p.open('/perception/basics.html');
    await page.bringToFront();
    const result = await interruptedFullPage(page, () => other.bringToFront());
    expectNothingCaptured(result);
    expect(textOf(result)).toMatch(/another tab became active/);
    // The page is scrolled back, and once it is in front again a screenshot works.
    await expect.poll(() => page.evaluate(() => scrollY)).toBe(0);
    await page.bringToFront();
    const again = await p.call('screenshot');
    expect(again.isError).toBeFalsy();
    image(again);
    await other.close();
    await page.close();
  });

  it('stops when the page navigates to another site during a full-page screenshot', async () => {
    const page = await p.open('/perception/long.html');
    const result = await interruptedFullPage(page, () =>
      page.evaluate((url) => location.assign(url), `${p.fixtures.other}/perception/basics.html`),
    );
    expectNothingCaptured(result);
    await page.close();
  });

  it('stops when the page changes its address in place during a full-page screenshot', async () => {
    const page = await p.open('/perception/long.html');
    const result = await interruptedFullPage(page, () => page.evaluate(() => history.pushState(null, '', '#moved')));
    expectNothingCaptured(result);
    await page.close();
  });

  it('stops when another tab comes to the front and goes back again between two captures', async () => {
    const page = await p.open('/perception/long.html');
    const other = await p.open('/perception/basics.html');
    await page.bringToFront();
    const result = await interruptedFullPage(page, async () => {
      await other.bringToFront();
      await page.bringToFront();
    });
    expectNothingCaptured(result);
    await other.close();
    await page.close();
  });

  it('stops when the page changes its address and back during a full-page screenshot', async () => {
    const page = await p.open('/perception/long.html');
    const result = await interruptedFullPage(page, () =>
      page.evaluate(() => {
        const here = location.href;
        history.pushState(null, '', '#moved');
        history.replaceState(null, '', here);
      }),
    );
    expectNothingCaptured(result);
    await page.close();
  });

  async function openFramesPage(): Promise<Page> {
    const page = await p.open(`/screenshot/frames.html?other=${encodeURIComponent(elsewhere.allowed)}`);
    // Every frame, nested ones included, has painted its colour.
    await page.frameLocator('#outer').frameLocator('iframe').locator('body').waitFor();
    await page.frameLocator('#refused').frameLocator('iframe').locator('body').waitFor();
    await page.waitForFunction(() => document.readyState === 'complete');
    await page.evaluate(() => (window as unknown as { hiddenFrameLoaded: Promise<void> }).hiddenFrameLoaded);
    return page;
  }

  it('paints over a frame from a site that is not allowed, and the frames inside it, in the visible part', async () => {
    const page = await openFramesPage();
    const result = await p.call('screenshot');
    expect(result.isError, textOf(result)).toBeFalsy();
    const { counts, width } = await countColours(page, image(result).bytes, COLOURS);
    expect(width).toBe(1100);
    expect(counts.refused).toBe(0);
    expect(counts.refusedBlank).toBe(0);
    expect(counts.refusedNested).toBe(0);
    expect(counts.refusedInShadow).toBe(0);
    // The allowed page, its same-site frame and the frame from the other allowed site all show.
    expect(counts.allowedTop).toBeGreaterThan(0.9 * 240 * 180);
    expect(counts.allowedFrame).toBeGreaterThan(0.9 * (240 * 180 + 400 * 300 - 150 * 100));
    // The refused frame (with its about:blank child), the one nested in the allowed frame, the shadow one.
    expect(counts.mask).toBeGreaterThan(0.8 * (2 * 240 * 180 + 150 * 100));
    await page.close();
  });

  it('paints over the not-allowed frames in every part of a full-page screenshot', async () => {
    const page = await openFramesPage();
    const result = await p.call('screenshot', { fullPage: true });
    expect(result.isError, textOf(result)).toBeFalsy();
    const { counts, height } = await countColours(page, image(result).bytes, COLOURS);
    expect(height).toBeGreaterThan(1700);
    expect(counts.refused).toBe(0);
    expect(counts.refusedBlank).toBe(0);
    expect(counts.refusedNested).toBe(0);
    expect(counts.refusedInShadow).toBe(0);
    expect(counts.allowedTop).toBeGreaterThan(0.9 * 240 * 180);
    expect(counts.mask).toBeGreaterThan(0.8 * (3 * 240 * 180 + 150 * 100));
    await page.close();
  });
});
