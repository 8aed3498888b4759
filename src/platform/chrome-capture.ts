/**
 * Screenshot plumbing for the panel: whether Chrome lets us capture (captureVisibleTab needs
 * `<all_urls>`, granted only when the user turns screenshots on), and re-encoding captures with
 * OffscreenCanvas so a picture can be scaled down until it fits the result cap, with the frames
 * the gates refused painted over before the picture is encoded.
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

export const MASK_FILL = '#5f6368';
export const MASK_LABEL = 'not allowed';
/** JPEG blocks and resampling smear a few pixels past an edge; masks reach that far too. */
const MASK_MARGIN_CSS = 2;

/**
 * Paints every part's masks in picture pixels, rounded outwards, after all parts are drawn: parts
 * overlap at the page's end, and a later part must not draw back what an earlier one masked.
 */
function paintMasks(
  context: OffscreenCanvasRenderingContext2D,
  parts: ImagePart[],
  bitmaps: ImageBitmap[],
  scale: number,
): void {
  context.setTransform(1, 0, 0, 1, 0, 0);
  parts.forEach((part, i) => {
    if (!part.masks?.rects.length) return;
    const ratio = bitmaps[i]!.width / part.masks.viewportWidth;
    for (const rect of part.masks.rects) {
      const left = Math.floor((rect.x - MASK_MARGIN_CSS) * ratio * scale) - 1;
      const top = Math.floor((part.top + (rect.y - MASK_MARGIN_CSS) * ratio) * scale) - 1;
      const right = Math.ceil((rect.x + rect.width + MASK_MARGIN_CSS) * ratio * scale) + 1;
      const bottom = Math.ceil((part.top + (rect.y + rect.height + MASK_MARGIN_CSS) * ratio) * scale) + 1;
      context.fillStyle = MASK_FILL;
      context.fillRect(left, top, right - left, bottom - top);
      const size = Math.min(16 * ratio * scale, (bottom - top) / 2);
      if (size < 6) continue;
      context.font = `${Math.round(size)}px sans-serif`;
      if (context.measureText(MASK_LABEL).width > right - left - size) continue;
      context.fillStyle = '#fff';
      context.textAlign = 'center';
      context.textBaseline = 'middle';
      context.fillText(MASK_LABEL, (left + right) / 2, (top + bottom) / 2, right - left);
    }
  });
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
    paintMasks(context, parts, bitmaps, scale);
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: quality / 100 });
    return { data: await toBase64(blob), width, height };
  } finally {
    for (const bitmap of bitmaps) bitmap.close();
  }
}
