import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_DIST } from './harness';
import { startPerception, textOf, type Perception, type ToolResult } from './perception-setup';

/** The test build, plus `<all_urls>` granted up front: automation cannot answer Chrome's prompt. */
function distWithAllUrls(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tabwright-all-urls-'));
  cpSync(TEST_DIST, dir, { recursive: true });
  const manifestPath = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { host_permissions?: string[] };
  manifest.host_permissions = [...(manifest.host_permissions ?? []), '<all_urls>'];
  writeFileSync(manifestPath, JSON.stringify(manifest));
  return dir;
}

/** Width and height from a JPEG's start-of-frame marker. */
function jpegSize(bytes: Buffer): { width: number; height: number } {
  expect(bytes[0]).toBe(0xff);
  expect(bytes[1]).toBe(0xd8);
  let at = 2;
  while (at < bytes.length) {
    const marker = bytes[at + 1]!;
    const length = bytes.readUInt16BE(at + 2);
    if (marker >= 0xc0 && marker <= 0xc2)
      return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
    at += 2 + length;
  }
  throw new Error('no SOF marker');
}

function image(result: ToolResult): { bytes: Buffer; serialized: number } {
  const block = result.content.find((part) => part.type === 'image');
  expect(block?.mimeType).toBe('image/jpeg');
  return { bytes: Buffer.from(block!.data!, 'base64'), serialized: Buffer.byteLength(JSON.stringify(result)) };
}

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
