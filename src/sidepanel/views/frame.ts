/**
 * Runs rendering work at most once per animation frame. New work waits until `minIntervalMs`
 * after the last run (20 updates a second: text still reaches the screen within about 100 ms of
 * arriving, and a streamed reply costs a bounded number of screen updates per second however fast
 * its chunks come, each update also paying for style, layout and paint). Work a run left
 * unfinished (a burst of text, a restored history) goes on in the very next frame instead: its
 * text has waited already, and each run's budget leaves the rest of the frame to input. A hidden
 * page gets no animation frames (Chrome pauses them), yet a panel in a background tab must keep up
 * with its agents, so there a timer stands in.
 *
 * The wait between runs is a task of user-blocking priority where the page has `scheduler`: a
 * plain timer queues behind every socket message that arrived before it was due, so in a burst of
 * thousands of chunks it would hold the text back until the burst had been read.
 */
export class FrameScheduler {
  #pending = false;
  #lastRun = -Infinity;
  #handle: { frame?: number; cancel?: () => void } = {};

  constructor(
    private readonly work: () => void,
    private readonly minIntervalMs = 50,
    private readonly hiddenDelayMs = 100,
  ) {}

  /** Asks for a run; `unfinished` when the last run left work over, which then goes on next frame. */
  request(unfinished = false): void {
    const visible = document.visibilityState === 'visible';
    const throttled = visible && this.#handle.cancel !== undefined;
    if (this.#pending && !(unfinished && throttled)) return;
    if (throttled) this.#handle.cancel!();
    this.#pending = true;
    const run = () => this.run();
    if (!visible) {
      const timer = setTimeout(run, this.hiddenDelayMs);
      this.#handle = { cancel: () => clearTimeout(timer) };
      return;
    }
    const wait = unfinished ? 0 : this.#lastRun + this.minIntervalMs - performance.now();
    if (wait <= 0) this.#handle = { frame: requestAnimationFrame(run) };
    else this.#handle = { cancel: urgentTimeout(() => (this.#handle = { frame: requestAnimationFrame(run) }), wait) };
  }

  /** Does the pending work now (before reading the DOM, or when a turn ends). */
  run(): void {
    if (this.#handle.frame !== undefined) cancelAnimationFrame(this.#handle.frame);
    this.#handle.cancel?.();
    this.#handle = {};
    if (!this.#pending) return;
    this.#pending = false;
    this.#lastRun = performance.now();
    this.work();
  }
}

interface TaskScheduler {
  postTask(
    callback: () => void,
    options: { priority: 'user-blocking'; delay: number; signal: AbortSignal },
  ): Promise<void>;
}

/** Runs `callback` after `ms` ahead of ordinary tasks where the page can; returns how to cancel it. */
function urgentTimeout(callback: () => void, ms: number): () => void {
  const scheduler = (globalThis as { scheduler?: TaskScheduler }).scheduler;
  if (!scheduler) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  }
  const controller = new AbortController();
  scheduler
    .postTask(callback, { priority: 'user-blocking', delay: ms, signal: controller.signal })
    .catch((error: unknown) => {
      // A cancelled task rejects its promise: that is expected, not an error.
      if (!controller.signal.aborted) throw error;
    });
  return () => controller.abort();
}
