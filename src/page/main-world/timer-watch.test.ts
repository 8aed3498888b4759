/**
 * The timer watch in a jsdom window: timers set during a watch are pending until they fire or are
 * cleared, timers their callbacks set are watched too, and nothing outside a watch is noted.
 */
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { watchTimers } from './timer-watch';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the timer watch', () => {
  it('notes the timers a watched dispatch sets, and the ones they set, until they fire', async () => {
    const win = new JSDOM('').window as unknown as Window & typeof globalThis;
    const watch = watchTimers(win);
    const fired: string[] = [];
    win.setTimeout(() => fired.push('unwatched'), 5);
    expect(watch.pending()).toBe(false);
    watch.watch(true);
    win.setTimeout(() => win.setTimeout(() => fired.push('second'), 10), 10);
    const cleared = win.setTimeout(() => fired.push('cleared'), 10);
    win.setTimeout(() => fired.push('session timeout'), 60_000);
    watch.watch(false);
    win.clearTimeout(cleared);
    expect(watch.pending()).toBe(true);
    await tick(15);
    expect(watch.pending()).toBe(true);
    await tick(20);
    expect(watch.pending()).toBe(false);
    expect(fired).toEqual(['unwatched', 'second']);
    win.close();
  });
});
