/**
 * Runs rendering work at most once per animation frame, and no more often than every
 * `minIntervalMs` (about 12 updates a second, which still reads as live): a streamed reply then
 * costs a bounded number of screen updates per second however fast its chunks arrive (each update
 * also pays for style, layout and paint). A hidden
 * page gets no animation frames (Chrome pauses them), yet a panel in a background tab must keep up
 * with its agents, so there a timer stands in.
 */
export class FrameScheduler {
  #pending = false;
  #lastRun = -Infinity;
  #handle: { frame?: number; timer?: ReturnType<typeof setTimeout> } = {};

  constructor(
    private readonly work: () => void,
    private readonly minIntervalMs = 80,
    private readonly hiddenDelayMs = 100,
  ) {}

  request(): void {
    if (this.#pending) return;
    this.#pending = true;
    const run = () => this.run();
    if (document.visibilityState !== 'visible') {
      this.#handle = { timer: setTimeout(run, this.hiddenDelayMs) };
      return;
    }
    const wait = this.#lastRun + this.minIntervalMs - performance.now();
    if (wait <= 0) this.#handle = { frame: requestAnimationFrame(run) };
    else this.#handle = { timer: setTimeout(() => (this.#handle = { frame: requestAnimationFrame(run) }), wait) };
  }

  /** Does the pending work now (before reading the DOM, or when a turn ends). */
  run(): void {
    if (this.#handle.frame !== undefined) cancelAnimationFrame(this.#handle.frame);
    if (this.#handle.timer !== undefined) clearTimeout(this.#handle.timer);
    this.#handle = {};
    if (!this.#pending) return;
    this.#pending = false;
    this.#lastRun = performance.now();
    this.work();
  }
}
