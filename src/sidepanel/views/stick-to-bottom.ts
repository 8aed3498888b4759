/**
 * Keeps the transcript pinned to the newest message while the user is at the bottom, and lets
 * them scroll up to read without being pulled down; a "Jump to latest" button appears meanwhile.
 *
 * No layout is read per frame: the browser's scroll anchoring does the pinning. Every child of the
 * scroller opts out of anchoring except a sentinel at the very end, so while the sentinel is in
 * view the browser keeps it there as content grows above it; once the user scrolls up, nothing is
 * anchored and the view stays put. An IntersectionObserver on the sentinel tells which case holds.
 */
export class StickToBottom {
  readonly #sentinel: HTMLElement;
  #pinned = true;
  /** Where the view was the last time it was at the bottom. */
  #pinnedTop = 0;
  /** Where the person left the view, kept while it is out of the page (a scroller put back starts at 0). */
  #readingTop = 0;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly jump: HTMLButtonElement,
  ) {
    this.#sentinel = document.createElement('div');
    this.#sentinel.className = 'bottom-anchor';
    this.#sentinel.setAttribute('aria-hidden', 'true');
    scroller.append(this.#sentinel);
    // Layout is fresh when this runs, so reading the scroll position here costs nothing extra.
    new IntersectionObserver(
      ([entry]) => {
        const top = scroller.scrollTop;
        if (entry?.isIntersecting ?? true) {
          this.#setPinned(true);
          this.#pinnedTop = top;
          return;
        }
        // Out of view without the view moving up: content grew past the end (anchoring does not
        // apply at scroll offset 0), so follow it. Moved up: the user is reading; stay put.
        if (this.#pinned && top >= this.#pinnedTop - 2) {
          this.#sentinel.scrollIntoView({ block: 'end' });
          this.#pinnedTop = scroller.scrollTop;
          return;
        }
        this.#setPinned(false);
      },
      { root: scroller, rootMargin: '0px 0px 48px 0px' },
    ).observe(this.#sentinel);
    scroller.addEventListener(
      'scroll',
      () => {
        if (!scroller.isConnected || scroller.clientHeight === 0) return;
        const top = scroller.scrollTop;
        // Anchoring moves a pinned view down as content grows, without the observer hearing of it:
        // keep the mark current, or a later scroll up that stays below an old mark is taken for growth.
        if (this.#pinned && top > this.#readingTop) this.#pinnedTop = top;
        this.#readingTop = top;
      },
      { passive: true },
    );
    jump.addEventListener('click', () => {
      this.pin();
      scroller.focus({ preventScroll: true });
    });
  }

  #setPinned(pinned: boolean): void {
    this.#pinned = pinned;
    if (this.jump.hidden !== pinned) this.jump.hidden = pinned;
  }

  get pinned(): boolean {
    return this.#pinned;
  }

  /** Content is appended before the sentinel, so it stays last. */
  append(node: Node): void {
    this.scroller.insertBefore(node, this.#sentinel);
  }

  /** Empties the scroller but keeps the sentinel. */
  replace(...nodes: Node[]): void {
    this.scroller.replaceChildren(...nodes, this.#sentinel);
  }

  /**
   * The scroller is back in the page (Settings closed): the person finds the view where they left
   * it, or at the end if they were following it. Called at once, before the observer sees the
   * offset of 0 a re-inserted scroller starts at and takes it for the person scrolling up.
   */
  restore(): void {
    if (this.#pinned) this.pin();
    else this.scroller.scrollTop = this.#readingTop;
  }

  /** The user sent something, or asked for the latest: show the end, whatever they were reading. */
  pin(): void {
    this.#sentinel.scrollIntoView({ block: 'end' });
    this.#pinnedTop = this.scroller.scrollTop;
    this.#setPinned(true);
  }
}
