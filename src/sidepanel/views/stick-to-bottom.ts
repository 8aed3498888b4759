/**
 * Keeps the transcript pinned to the newest message while the user is at the bottom, and lets
 * them scroll up to read without being pulled down; a "Jump to latest" button appears meanwhile.
 */
const NEAR_BOTTOM_PX = 48;

export class StickToBottom {
  #pinned = true;

  constructor(
    private readonly scroller: HTMLElement,
    private readonly jump: HTMLButtonElement,
  ) {
    scroller.addEventListener('scroll', () => {
      this.#pinned = this.#distance() <= NEAR_BOTTOM_PX;
      if (this.#pinned) jump.hidden = true;
    });
    jump.addEventListener('click', () => {
      this.#pinned = true;
      this.follow();
      scroller.focus({ preventScroll: true });
    });
  }

  get pinned(): boolean {
    return this.#pinned;
  }

  #distance(): number {
    return this.scroller.scrollHeight - this.scroller.scrollTop - this.scroller.clientHeight;
  }

  /** After content changed: follow it when pinned, otherwise offer the jump. */
  follow(): void {
    if (this.#pinned) {
      this.scroller.scrollTop = this.scroller.scrollHeight;
      this.jump.hidden = true;
    } else if (this.#distance() > NEAR_BOTTOM_PX) {
      this.jump.hidden = false;
    }
  }

  /** The user sent something: show it, whatever they were reading. */
  pin(): void {
    this.#pinned = true;
    this.follow();
  }
}
