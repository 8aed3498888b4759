/**
 * The timer watch in a jsdom window: timers set during a watch are pending until they fire or are
 * cleared, timers their callbacks set are watched too, and nothing outside a watch is noted.
 */
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { ACTION_TIMER_MAX_MS, LATER_MAX_MS, SOON_MAX_MS, watchTimers } from './timer-watch';

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

  it('follows the timers an action’s events set to their callbacks, for a moment after the action only', async () => {
    const win = new JSDOM('').window as unknown as Window & typeof globalThis;
    const watch = watchTimers(win);
    const seen: Array<[string, number]> = [];
    const note = (what: string) => () => seen.push([what, watch.actionTimer()]);
    win.setTimeout(note('set before'), 0);
    watch.acting(7);
    win.setTimeout(() => {
      note('deferred')();
      win.setTimeout(() => {
        note('chained')();
        // Due later than a moment after the action's events, counted from them along the chain.
        win.setTimeout(note('too late'), ACTION_TIMER_MAX_MS - 5);
      }, 10);
    }, 0);
    watch.acting(0);
    win.setTimeout(note('set after'), 0);
    await tick(ACTION_TIMER_MAX_MS + 60);
    expect(seen).toEqual([
      ['set before', 0],
      ['deferred', 7],
      ['set after', 0],
      ['chained', 7],
      ['too late', 0],
    ]);
    expect(watch.pending()).toBe(false);
    win.close();
  });

  it('notes the work set for soon under a mark: short timers and intervals until done, port messages once', async () => {
    const win = new JSDOM('').window as unknown as Window & typeof globalThis;
    // jsdom has no MessagePort: a port whose postMessage only counts stands in for the browser's.
    const delivered: unknown[] = [];
    class Port {
      postMessage(message: unknown) {
        delivered.push(message);
      }
    }
    Object.assign(win, { MessagePort: Port });
    const watch = watchTimers(win);
    const fired: string[] = [];
    win.setTimeout(() => fired.push('before the mark'), 5);
    expect(watch.soon()).toBe(false);
    watch.mark(true);
    win.setTimeout(() => fired.push('poll'), SOON_MAX_MS + 50);
    expect(watch.soon()).toBe(false);
    win.setTimeout(() => fired.push('soon'), 10);
    expect(watch.soon()).toBe(true);
    await tick(20);
    expect(fired).toEqual(['before the mark', 'soon']);
    expect(watch.soon()).toBe(false);
    win.clearTimeout(win.setTimeout(() => fired.push('cleared'), 10));
    expect(watch.soon()).toBe(false);
    const interval = win.setInterval(() => fired.push('tick'), 5);
    await tick(20);
    expect(watch.soon()).toBe(true);
    win.clearInterval(interval);
    expect(watch.soon()).toBe(false);
    new Port().postMessage('next slice');
    expect(delivered).toEqual(['next slice']);
    expect(watch.soon()).toBe(true);
    // Asked once: a message counts in the beat it was posted in.
    expect(watch.soon()).toBe(false);
    watch.mark(false);
    new Port().postMessage('after the mark');
    expect(watch.soon()).toBe(false);
    win.setTimeout(() => fired.push('after the mark'), 5);
    expect(watch.soon()).toBe(false);
    await tick(SOON_MAX_MS + 60);
    expect(fired).not.toContain('cleared');
    win.close();
  });

  it('notes the work due within the idle wait under a mark, and answers that may come at any time', async () => {
    const win = new JSDOM('').window as unknown as Window & typeof globalThis;
    const sent: unknown[] = [];
    class Socket {
      send(message: unknown) {
        sent.push(message);
      }
    }
    Object.assign(win, { WebSocket: Socket });
    const watch = watchTimers(win);
    const fired: string[] = [];
    watch.mark(true);
    win.setTimeout(() => fired.push('poll'), LATER_MAX_MS + 50);
    expect(watch.later()).toBe(false);
    // A debounced search: not soon, but within the idle wait.
    win.setTimeout(() => fired.push('search'), SOON_MAX_MS + 20);
    expect([watch.soon(), watch.later()]).toEqual([false, true]);
    await tick(SOON_MAX_MS + 40);
    expect(fired).toEqual(['search']);
    expect(watch.later()).toBe(false);
    win.clearInterval(win.setInterval(() => fired.push('cleared'), LATER_MAX_MS));
    expect(watch.later()).toBe(false);
    new Socket().send('typing');
    expect(sent).toEqual(['typing']);
    // Its answer can come at any time: unsure until the mark closes.
    expect(watch.later()).toBe(true);
    watch.mark(false);
    watch.mark(true);
    expect(watch.later()).toBe(false);
    win.setTimeout('void 0', 10);
    expect(watch.later()).toBe(true);
    watch.mark(false);
    watch.mark(true);
    // An upload's preview: the page reads the file it was handed, and shows it once read.
    new win.FileReader().readAsText(new win.Blob(['photo']));
    expect(watch.later()).toBe(true);
    watch.mark(false);
    await tick(LATER_MAX_MS + 60);
    expect(fired).toEqual(['search', 'poll']);
    win.close();
  });
});
