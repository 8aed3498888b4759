/**
 * What the screenshot e2e files share: the test build with `<all_urls>` granted up front
 * (automation cannot answer Chrome's prompt), reading the JPEG a call returned, and counting its
 * pixels by colour (decoded by Chromium itself, in a page).
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { TEST_DIST } from './harness';
import type { Perception, ToolResult } from './perception-setup';

export function distWithAllUrls(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tabwright-all-urls-'));
  cpSync(TEST_DIST, dir, { recursive: true });
  const manifestPath = join(dir, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { host_permissions?: string[] };
  manifest.host_permissions = [...(manifest.host_permissions ?? []), '<all_urls>'];
  writeFileSync(manifestPath, JSON.stringify(manifest));
  return dir;
}

/** Width and height from a JPEG's start-of-frame marker. */
export function jpegSize(bytes: Buffer): { width: number; height: number } {
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

export function image(result: ToolResult): { bytes: Buffer; serialized: number } {
  const block = result.content.find((part) => part.type === 'image');
  expect(block?.mimeType).toBe('image/jpeg');
  return { bytes: Buffer.from(block!.data!, 'base64'), serialized: Buffer.byteLength(JSON.stringify(result)) };
}

export async function turnScreenshotsOn(p: Perception): Promise<void> {
  await p.panel.getByRole('button', { name: 'Settings' }).click();
  await p.panel.getByRole('switch', { name: 'Screenshots' }).check();
  await p.panel.getByRole('switch', { name: 'Screenshots', checked: true }).waitFor();
  await p.panel.getByRole('button', { name: 'Settings' }).click();
}

/**
 * How many pixels of a JPEG lie near each named colour (within `tolerance` on every channel), and
 * the picture's size. `page` only lends its renderer; the picture is not shown.
 */
export async function countColours(
  page: Page,
  bytes: Buffer,
  colours: Record<string, [number, number, number]>,
  tolerance = 48,
): Promise<{ width: number; height: number; counts: Record<string, number> }> {
  return page.evaluate(
    async ({ base64, colours, tolerance }) => {
      const binary = atob(base64);
      const data = Uint8Array.from(binary, (char) => char.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([data], { type: 'image/jpeg' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      const pixels = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const counts = Object.fromEntries(Object.keys(colours).map((name) => [name, 0]));
      const entries = Object.entries(colours);
      for (let i = 0; i < pixels.length; i += 4) {
        for (const [name, [r, g, b]] of entries) {
          const near =
            Math.abs(pixels[i]! - r) <= tolerance &&
            Math.abs(pixels[i + 1]! - g) <= tolerance &&
            Math.abs(pixels[i + 2]! - b) <= tolerance;
          if (near) counts[name]!++;
        }
      }
      return { width: bitmap.width, height: bitmap.height, counts };
    },
    { base64: bytes.toString('base64'), colours, tolerance },
  );
}
