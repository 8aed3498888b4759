/**
 * How much markdown fits in a time budget, learned from the slices rendered so far and shared by
 * every reply: a restored history makes hundreds of renderers, and each one guessing its first
 * slice afresh would make every one of those guesses a possible long task.
 */
export interface PaceLimits {
  /** The guess before anything has been measured; pessimistic, since cold code runs slowest. */
  initialMsPerChar: number;
  /** Fewest characters a slice renders, so a slow frame still makes progress. */
  minChars: number;
  maxChars: number;
  /**
   * Renders shorter than this teach nothing: their time is mostly what every render costs whatever
   * its length (elements made, sanitizing), and dividing it by a few characters would make every
   * later slice tiny, so a short tool result would crawl out a few lines per frame.
   */
  sampleChars: number;
}

export const DEFAULT_PACE: PaceLimits = { initialMsPerChar: 0.02, minChars: 200, maxChars: 16_000, sampleChars: 1_000 };

export class RenderPace {
  #msPerChar: number;

  constructor(private readonly limits: PaceLimits = DEFAULT_PACE) {
    this.#msPerChar = limits.initialMsPerChar;
  }

  /** Characters that can be parsed and rendered in `budgetMs`. */
  chars(budgetMs: number): number {
    const fit = Math.max(budgetMs, 0) / this.#msPerChar;
    return Math.round(Math.min(this.limits.maxChars, Math.max(this.limits.minChars, fit)));
  }

  /**
   * A render of `chars` characters took `ms`. A slower measure is believed at once (the machine got
   * busy, or the text got harder), a faster one a quarter at a time, so one lucky slice does not
   * make the next one too big.
   */
  record(chars: number, ms: number): void {
    if (chars < this.limits.sampleChars) return;
    const measured = Math.max(ms, 0.01) / chars;
    this.#msPerChar = measured >= this.#msPerChar ? measured : this.#msPerChar * 0.75 + measured * 0.25;
  }
}

/** The pace every reply in the panel renders at. */
export const renderPace = new RenderPace();
