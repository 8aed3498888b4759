/**
 * Draws the extension icon at each size the manifest names, so the repository holds the recipe
 * rather than hand-made binaries. Shapes are signed-distance tests, supersampled for smooth edges.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PNG } from 'pngjs';

export const ICON_SIZES = [16, 32, 48, 128] as const;

type Rgba = [number, number, number, number];

const BACKGROUND_TOP: Rgba = [37, 99, 235, 255];
const BACKGROUND_BOTTOM: Rgba = [30, 58, 138, 255];
const INK: Rgba = [255, 255, 255, 255];
const ACCENT: Rgba = [250, 204, 21, 255];

function roundedRectDistance(x: number, y: number, cx: number, cy: number, hw: number, hh: number, r: number) {
  const qx = Math.abs(x - cx) - hw + r;
  const qy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** Colour of the unit-square point (x, y), before antialiasing. */
function shade(x: number, y: number): Rgba | null {
  if (roundedRectDistance(x, y, 0.5, 0.5, 0.5, 0.5, 0.2) > 0) return null;
  // A browser tab: a rounded tab head over a window body, drawn as an outline.
  const tabHead = roundedRectDistance(x, y, 0.36, 0.3, 0.16, 0.08, 0.05) <= 0;
  const body = roundedRectDistance(x, y, 0.5, 0.58, 0.3, 0.22, 0.06);
  const bodyOutline = body <= 0 && body > -0.07;
  const headSeam = y > 0.3 && y < 0.4 && x > 0.2 && x < 0.52;
  // The "wright": a cursor-like accent stroke inside the window.
  const accent = Math.abs(y - 0.62 - (x - 0.5) * 0.9) < 0.045 && x > 0.4 && x < 0.64;
  if (accent) return ACCENT;
  if (tabHead || bodyOutline || headSeam) return INK;
  const t = y;
  return BACKGROUND_TOP.map((c, i) => Math.round(c + (BACKGROUND_BOTTOM[i]! - c) * t)) as Rgba;
}

export function renderIcon(size: number): Buffer {
  const png = new PNG({ width: size, height: size });
  const samples = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const colour = shade((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size);
          if (!colour) continue;
          for (let i = 0; i < 3; i++) sum[i]! += colour[i]! * colour[3];
          sum[3]! += colour[3];
        }
      }
      const offset = (py * size + px) * 4;
      const alpha = sum[3]! / (samples * samples);
      for (let i = 0; i < 3; i++) png.data[offset + i] = sum[3]! ? Math.round(sum[i]! / sum[3]!) : 0;
      png.data[offset + 3] = Math.round(alpha);
    }
  }
  return PNG.sync.write(png);
}

export function writeIcons(directory: string): void {
  mkdirSync(directory, { recursive: true });
  for (const size of ICON_SIZES) writeFileSync(join(directory, `${size}.png`), renderIcon(size));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const directory = process.argv[2] ?? 'public/icons';
  writeIcons(directory);
  console.log(`icons written to ${directory}`);
}
