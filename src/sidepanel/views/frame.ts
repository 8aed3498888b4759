/**
 * Runs rendering work at most once per animation frame. New work waits until `minIntervalMs`
 * after the last run (20 updates a second: text still reaches the screen within about 100 ms of
 * arriving, and a streamed reply costs a bounded number of screen updates per second however fast
 * its chunks come, each update also paying for style, layout and paint). Work a run left
 * unfinished (a burst of text, a restored history) goes on in the very next frame instead: its
 * text has waited already, and each run's budget leaves the rest of the frame to input. A hidden
 * page gets no animation frames (Chrome pauses them), yet a panel in a background tab must keep up
 * with its agents, so there a timer stands in.
 */
export class FrameScheduler {
  #pending = false;
  #lastRun = -Infinity;
  #handle: { frame?: number; timer?: ReturnType<typeof setTimeout> } = {};

  constructor(
    private readonly work: () => void,
    private readonly minIntervalMs = 50,
    private readonly hiddenDelayMs = 100,
  ) {}

  /** Asks for a run; `unfinished` when the last run left work over, which then goes on next frame. */
  request(unfinished = false): void {
    const visible = document.visibilityState === 'visible';
    const throttled = visible && this.#handle.timer !== undefined;
    if (this.#pending && !(unfinished && throttled)) return;
    if (throttled) clearTimeout(this.#handle.timer);
    this.#pending = true;
    const run = () => this.run();
    if (!visible) {
      this.#handle = { timer: setTimeout(run, this.hiddenDelayMs) };
      return;
    }
    const wait = unfinished ? 0 : this.#lastRun + this.minIntervalMs - performance.now();
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
