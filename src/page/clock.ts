/**
 * Tabwright's own clock in the page, which every wait of an action keeps time by (settling,
 * actionability, `wait_for`, the beats of a drag). A tab that is not in front runs no animation
 * frames and holds its timers back (to once a second, and after five minutes hidden to about once a
 * minute), so the clock does not rely on either: while a command runs the panel sends the page a
 * tick every `TICK_MS` (`src/platform/chrome-page.ts`), and a due wait ends on the first tick at or
 * after its time. A page timer stands by for a page no panel ticks (unit tests); in front it is as
 * prompt as the ticks, and in the background the ticks come first. A beat (what a step waits to let
 * the page draw) also ends on the page's next animation frame when that comes first.
 */

/** How often the panel ticks a page while a command runs there. */
export const TICK_MS = 16;

/** One beat at most: what stands in for an animation frame in Tabwright's waits. */
export const BEAT_MS = TICK_MS;

interface Due {
  at: number;
  fire(): void;
}

/** Whether the document this clock keeps time for is in a tab that is not in front. */
const documentHidden = () => globalThis.document?.visibilityState === 'hidden';

export class PageClock {
  readonly #due = new Set<Due>();

  constructor(private readonly hidden: () => boolean = documentHidden) {}

  /**
   * A tick from the panel: every wait whose time has come ends now. In a hidden tab, where the
   * ticks are the only clock, a wait ends on the tick nearest its time rather than the first one
   * after it: otherwise every wait there runs half a tick long on average, and a settle's two
   * quiet beats a whole tick longer than in front.
   */
  tick(now = performance.now()): void {
    const early = this.hidden() ? TICK_MS / 2 : 0;
    for (const due of [...this.#due]) if (now >= due.at - early) due.fire();
  }

  /** Calls `callback` once, `ms` from now; returns a function that calls it off. */
  schedule(ms: number, callback: () => void): () => void {
    const due: Due = {
      at: performance.now() + ms,
      fire: () => {
        cancel();
        callback();
      },
    };
    const timer = setTimeout(() => due.fire(), ms);
    const cancel = () => {
      clearTimeout(timer);
      this.#due.delete(due);
    };
    this.#due.add(due);
    return cancel;
  }

  /**
   * Calls `callback` once, at the page's next animation frame or after `BEAT_MS`, whichever comes
   * first: in front a beat ends when the page draws (as soon as a frame shows what changed, not a
   * fixed time later); a hidden tab draws no frames, and the beat keeps time without them.
   */
  beat(callback: () => void): () => void {
    const view = globalThis as Partial<Pick<Window, 'requestAnimationFrame' | 'cancelAnimationFrame'>>;
    // Neither can fire before both are set: a tick, a timer and a frame each come in a task of their own.
    const cancelTime = this.schedule(BEAT_MS, () => {
      cancelFrame();
      callback();
    });
    const frame = view.requestAnimationFrame?.(() => {
      cancelTime();
      callback();
    });
    const cancelFrame = () => {
      if (frame !== undefined) view.cancelAnimationFrame?.(frame);
    };
    return () => {
      cancelTime();
      cancelFrame();
    };
  }
}

/** The clock of this isolated world (one per document the agent is injected into). */
export const pageClock = new PageClock();
