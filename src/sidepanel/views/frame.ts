/**
 * Runs rendering work at most once per animation frame. A hidden page gets no animation frames
 * (Chrome pauses them), yet a panel in a background tab must keep up with its agents, so there a
 * short timer stands in.
 */
export class FrameScheduler {
  #pending = false;
  #handle: { frame?: number; timer?: ReturnType<typeof setTimeout> } = {};

  constructor(
    private readonly work: () => void,
    private readonly hiddenDelayMs = 50,
  ) {}

  request(): void {
    if (this.#pending) return;
    this.#pending = true;
    const run = () => this.run();
    if (document.visibilityState === 'visible') this.#handle = { frame: requestAnimationFrame(run) };
    else this.#handle = { timer: setTimeout(run, this.hiddenDelayMs) };
  }

  /** Does the pending work now (before reading the DOM, or when a turn ends). */
  run(): void {
    if (this.#handle.frame !== undefined) cancelAnimationFrame(this.#handle.frame);
    if (this.#handle.timer !== undefined) clearTimeout(this.#handle.timer);
    this.#handle = {};
    if (!this.#pending) return;
    this.#pending = false;
    this.work();
  }
}
