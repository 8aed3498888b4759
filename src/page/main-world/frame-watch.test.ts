/**
 * The frame watch in a jsdom window that draws frames: requests made since the mark are pending
 * until their callbacks run or they are cancelled, and nothing before a mark is noted.
 */
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { watchFrames } from './frame-watch';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the frame watch', () => {
  it('notes the frames requested since the mark until their callbacks run or are cancelled', async () => {
    const win = new JSDOM('', { pretendToBeVisual: true }).window as unknown as Window & typeof globalThis;
    const watch = watchFrames(win);
    const ran: string[] = [];
    win.requestAnimationFrame(() => ran.push('before the mark'));
    expect(watch.pending()).toBe(false);
    watch.mark();
    const cancelled = win.requestAnimationFrame(() => ran.push('cancelled'));
    win.cancelAnimationFrame(cancelled);
    expect(watch.pending()).toBe(false);
    win.requestAnimationFrame((time) => ran.push(`drawn ${typeof time}`));
    expect(watch.pending()).toBe(true);
    await tick(60);
    expect(watch.pending()).toBe(false);
    expect(ran).toEqual(['before the mark', 'drawn number']);
    win.close();
  });

  it('keeps a request pending while no frame is drawn', () => {
    const win = new JSDOM('', { pretendToBeVisual: true }).window as unknown as Window & typeof globalThis;
    const watch = watchFrames(win);
    watch.mark();
    win.requestAnimationFrame(() => undefined);
    watch.mark();
    expect(watch.pending()).toBe(false);
    win.requestAnimationFrame(() => undefined);
    expect(watch.pending()).toBe(true);
    win.close();
  });
});
