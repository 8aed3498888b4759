// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SettleWatch } from './actions/settle';
import { BEAT_MS, PageClock, pageClock } from './clock';

/** The page's own timers and frames held back, as Chrome holds them back in a tab that is not in front. */
function holdPageTimers() {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'requestAnimationFrame'] });
}

describe('PageClock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends a wait on the first tick at or after its time, with the page’s timers held back', () => {
    holdPageTimers();
    const clock = new PageClock();
    const fired: string[] = [];
    const now = performance.now();
    clock.schedule(50, () => fired.push('a'));
    clock.schedule(200, () => fired.push('b'));
    clock.tick(now + 10);
    expect(fired).toEqual([]);
    clock.tick(now + 60);
    expect(fired).toEqual(['a']);
    clock.tick(now + 70);
    expect(fired).toEqual(['a']);
    clock.tick(now + 250);
    expect(fired).toEqual(['a', 'b']);
  });

  it('ends a wait on the tick nearest its time in a hidden tab, where ticks are the only clock', () => {
    holdPageTimers();
    let hidden = true;
    const clock = new PageClock(() => hidden);
    const fired: string[] = [];
    const now = performance.now();
    clock.schedule(BEAT_MS, () => fired.push('beat'));
    clock.schedule(100, () => fired.push('later'));
    clock.tick(now + BEAT_MS / 2 - 1);
    expect(fired).toEqual([]);
    clock.tick(now + BEAT_MS / 2 + 1);
    expect(fired).toEqual(['beat']);
    hidden = false;
    clock.tick(now + 100 - BEAT_MS / 2 + 1);
    expect(fired).toEqual(['beat']);
    clock.tick(now + 101);
    expect(fired).toEqual(['beat', 'later']);
  });

  it('calls a wait off, and falls back on the page’s timer when no tick comes', () => {
    holdPageTimers();
    const clock = new PageClock();
    const fired: string[] = [];
    const cancel = clock.schedule(20, () => fired.push('cancelled'));
    clock.schedule(20, () => fired.push('timer'));
    cancel();
    vi.advanceTimersByTime(25);
    expect(fired).toEqual(['timer']);
    clock.tick(performance.now() + 1_000);
    expect(fired).toEqual(['timer']);
  });

  it('ends a beat on the page’s next animation frame, and never a second time', () => {
    holdPageTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (callback: FrameRequestCallback) => frames.push(callback));
    vi.stubGlobal('cancelAnimationFrame', () => undefined);
    try {
      const clock = new PageClock();
      let beats = 0;
      clock.beat(() => beats++);
      expect(frames).toHaveLength(1);
      frames[0]!(performance.now());
      expect(beats).toBe(1);
      clock.tick(performance.now() + 1_000);
      vi.advanceTimersByTime(1_000);
      expect(beats).toBe(1);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('ends a beat on the clock when the page draws no frame (a hidden tab), and calls the frame off', () => {
    holdPageTimers();
    const cancelled: number[] = [];
    vi.stubGlobal('requestAnimationFrame', () => 7);
    vi.stubGlobal('cancelAnimationFrame', (id: number) => cancelled.push(id));
    try {
      const clock = new PageClock();
      let beats = 0;
      clock.beat(() => beats++);
      clock.tick(performance.now() + BEAT_MS / 2);
      expect(beats).toBe(0);
      clock.tick(performance.now() + BEAT_MS);
      expect(beats).toBe(1);
      expect(cancelled).toEqual([7]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('lets an action settle by ticks alone, as in a tab whose frames and timers are stalled', async () => {
    document.body.innerHTML = '<output>0</output>';
    const watch = new SettleWatch(document);
    document.querySelector('output')!.textContent = '1';
    // Real time for the test's own ticker, taken before the page's timers are held back.
    const realSetInterval = globalThis.setInterval.bind(globalThis);
    const realClearInterval = globalThis.clearInterval.bind(globalThis);
    holdPageTimers();
    const ticker = realSetInterval(() => pageClock.tick(), 16);
    const started = performance.now();
    const settled = await watch.settle(
      { quietBeats: 2, quietMs: 0, idleMs: 300, capMs: 3_000 },
      new AbortController().signal,
    );
    realClearInterval(ticker);
    watch.dispose();
    expect(settled.reason).toBe('quiet');
    expect(performance.now() - started).toBeLessThan(500);
  });
});
