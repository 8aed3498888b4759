/**
 * When the person last typed, clicked or scrolled in this document. Their input arrives as trusted
 * events; Tabwright's own actions dispatch untrusted ones, so they never count as the person's.
 * Listened to from the window in the capture phase, before a page can stop the event.
 */
const PERSON_EVENTS = ['keydown', 'pointerdown', 'mousedown', 'wheel', 'touchstart'] as const;

export class PersonInput {
  #last: number | undefined;

  constructor(view: Window) {
    const seen = (event: Event) => {
      if (event.isTrusted) this.#last = performance.now();
    };
    for (const type of PERSON_EVENTS) view.addEventListener(type, seen, { capture: true, passive: true });
  }

  /** Milliseconds since the person's last input here; null when they have given none. */
  idleMs(): number | null {
    return this.#last === undefined ? null : Math.round(performance.now() - this.#last);
  }
}
