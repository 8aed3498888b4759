import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPerception, textOf, type Perception } from './perception-setup';
import { distWithAllUrls, image, jpegSize } from './screenshot-setup';

describe('screenshot', () => {
  let p: Perception;
  let dist: string;

  beforeAll(async () => {
    dist = distWithAllUrls();
    p = await startPerception({ dist });
    await p.allow(p.fixtures.allowed);
  });
  afterAll(async () => {
    await p?.close();
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  it('is refused with a clear error while screenshots are off', async () => {
    const page = await p.open('/perception/basics.html');
    const refused = await p.call('screenshot');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/screenshots are off/i);
    expect(refused.content.some((part) => part.type === 'image')).toBe(false);
    await page.close();
  });

  it('takes a JPEG of the visible tab once the user turns screenshots on', async () => {
    await p.panel.getByRole('button', { name: 'Settings' }).click();
    await p.panel.getByRole('switch', { name: 'Screenshots' }).check();
    await expect.poll(() => p.panel.getByRole('switch', { name: 'Screenshots' }).isChecked()).toBe(true);
    await p.panel.getByRole('button', { name: 'Settings' }).click();
    const page = await p.open('/perception/basics.html');
    const result = await p.call('screenshot');
    expect(result.isError).toBeFalsy();
    const { bytes } = image(result);
    expect(jpegSize(bytes)).toEqual({ width: 1100, height: 800 });
    expect(textOf(result)).not.toContain('scaled');
    await page.close();
  });

  it('scales a picture down until it fits the 4 MiB result cap on a large viewport', async () => {
    const page = await p.open('/perception/noise.html');
    await page.setViewportSize({ width: 3400, height: 2400 });
    await page.reload();
    await page.waitForFunction(() => document.title === 'Noise ready');
    const result = await p.call('screenshot');
    expect(result.isError).toBeFalsy();
    const { bytes, serialized } = image(result);
    expect(serialized).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(textOf(result)).toMatch(/scaled to \d+%/);
    const size = jpegSize(bytes);
    expect(size.width).toBeLessThan(3400);
    expect(size.width / size.height).toBeCloseTo(3400 / 2400, 1);
    await page.close();
  });

  it('stitches the whole page from viewport captures with fullPage', async () => {
    const page = await p.open('/perception/long.html');
    const result = await p.call('screenshot', { fullPage: true });
    expect(result.isError).toBeFalsy();
    const { bytes, serialized } = image(result);
    expect(serialized).toBeLessThanOrEqual(4 * 1024 * 1024);
    const size = jpegSize(bytes);
    const pageHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    expect(size.height / size.width).toBeCloseTo(Math.min(pageHeight, 20 * 800) / 1100, 1);
    expect(await page.evaluate(() => scrollY)).toBe(0);
    await page.close();
  });
});
