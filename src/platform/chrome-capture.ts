/**
 * Screenshot plumbing for the panel: whether Chrome lets us capture (captureVisibleTab needs
 * `<all_urls>`, granted only when the user turns screenshots on), and re-encoding captures with
 * OffscreenCanvas so a picture can be scaled down until it fits the result cap.
 */
import type { ImagePart } from '../mcp-server/browser-port';

export const ALL_URLS = { origins: ['<all_urls>'] };

export function canCaptureScreenshots(): Promise<boolean> {
  return chrome.permissions.contains(ALL_URLS);
}

function toBlob(base64: string): Blob {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new Blob([bytes], { type: 'image/jpeg' });
}

async function toBase64(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  return btoa(binary);
}

export async function composeJpeg(
  parts: ImagePart[],
  size: { width: number; height: number } | undefined,
  scale: number,
  quality: number,
): Promise<{ data: string; width: number; height: number }> {
  const bitmaps = await Promise.all(parts.map((part) => createImageBitmap(toBlob(part.data))));
  try {
    const width = Math.max(1, Math.round((size?.width ?? bitmaps[0]!.width) * scale));
    const height = Math.max(1, Math.round((size?.height ?? bitmaps[0]!.height) * scale));
    const canvas = new OffscreenCanvas(width, height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d canvas context');
    context.fillStyle = '#fff';
    context.fillRect(0, 0, width, height);
    context.scale(scale, scale);
    bitmaps.forEach((bitmap, i) => context.drawImage(bitmap, 0, parts[i]!.top));
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: quality / 100 });
    return { data: await toBase64(blob), width, height };
  } finally {
    for (const bitmap of bitmaps) bitmap.close();
  }
}
