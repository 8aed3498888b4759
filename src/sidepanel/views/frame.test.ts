// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FrameScheduler } from './frame';

describe('FrameScheduler', () => {
  beforeEach(() =>
    vi.useFakeTimers({
      toFake: ['setTimeout', 'clearTimeout', 'requestAnimationFrame', 'cancelAnimationFrame', 'performance'],
    }),
  );
  afterEach(() => vi.useRealTimers());

  /** A scheduler that ran 20 ms ago, with new work just asked for. */
  function askedAgainSoonAfterARun() {
    const runs: number[] = [];
    const frame = new FrameScheduler(() => runs.push(performance.now()), 50);
    frame.request();
    vi.advanceTimersByTime(20);
    expect(runs).toHaveLength(1);
    frame.request();
    return { runs, frame };
  }

  it('keeps new work to one run per interval', () => {
    const { runs } = askedAgainSoonAfterARun();
    vi.advanceTimersByTime(40);
    expect(runs).toHaveLength(1);
    vi.advanceTimersByTime(30);
    expect(runs).toHaveLength(2);
    expect(runs[1]! - runs[0]!).toBeGreaterThanOrEqual(50);
  });

  it('goes on with unfinished work in the next frame, even when new work asked to wait', () => {
    let left = 3;
    const runs: number[] = [];
    const frame = new FrameScheduler(() => {
      runs.push(performance.now());
      frame.request(); // new text arrived meanwhile
      if (--left > 0) frame.request(true);
    }, 50);
    frame.request();
    vi.advanceTimersByTime(60);
    expect(runs).toHaveLength(3);
    expect(runs[2]! - runs[0]!).toBeLessThan(50);
  });

  it('waits between runs in a user-blocking task where the page has a scheduler, and cancels it when run early', async () => {
    const posted: Array<{ priority: string; delay: number; signal: AbortSignal; run: () => void }> = [];
    vi.stubGlobal('scheduler', {
      postTask: (run: () => void, options: { priority: string; delay: number; signal: AbortSignal }) => {
        posted.push({ ...options, run });
        return new Promise<void>((_, reject) =>
          options.signal.addEventListener('abort', () => reject(new Error('aborted'))),
        );
      },
    });
    try {
      const { runs, frame } = askedAgainSoonAfterARun();
      expect(posted).toHaveLength(1);
      expect(posted[0]!.priority).toBe('user-blocking');
      expect(posted[0]!.delay).toBeGreaterThan(0);
      expect(posted[0]!.delay).toBeLessThanOrEqual(50);
      vi.advanceTimersByTime(100);
      expect(runs).toHaveLength(1); // only the posted task leads to the next run
      posted[0]!.run();
      vi.advanceTimersByTime(20);
      expect(runs).toHaveLength(2);
      frame.request();
      frame.run();
      expect(runs).toHaveLength(3);
      expect(posted[1]!.signal.aborted).toBe(true);
      await Promise.resolve();
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
