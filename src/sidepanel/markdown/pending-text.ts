/**
 * Text that has arrived but is not formatted yet, shown as it is. When a reply arrives faster than
 * a frame's rendering budget can format it (a burst, a whole reply in one message), the formatted
 * part grows a slice per frame; without this, the rest would be missing from the screen until the
 * renderer reached it, half a second and more for a long reply.
 *
 * The text is kept in pieces of a bounded size, so a frame only adds the pieces for new text and
 * drops or trims the ones the renderer has reached: its cost follows what changed, not how much is
 * waiting. Pieces are blocks that end at a line break where one fits (else at a space), so the
 * text reads as its lines.
 */

const PIECE_CHARS = 2_048;

export class PendingText {
  readonly element: HTMLElement;
  #pieces: Text[] = [];
  /** The part of the whole text the pieces show, as offsets into it. */
  #from = 0;
  #to = 0;

  constructor() {
    this.element = document.createElement('div');
    this.element.className = 'md-pending';
  }

  get shown(): boolean {
    return this.#pieces.length > 0;
  }

  /**
   * Shows the text from `from` to the end of `tail`, whose first character is at `tailAt` in the
   * whole text. Offsets only ever grow while a reply streams; anything else starts over.
   */
  show(tail: string, tailAt: number, from: number): void {
    const to = tailAt + tail.length;
    if (from >= to) return this.clear();
    if (from < this.#from || from > this.#to || this.#pieces.length === 0) {
      this.clear();
      this.#from = this.#to = from;
    }
    while (this.#pieces.length > 0 && this.#from + this.#pieces[0]!.length <= from) {
      this.#from += this.#pieces[0]!.length;
      (this.#pieces.shift()!.parentNode as Element).remove();
    }
    if (from > this.#from) {
      this.#pieces[0]!.deleteData(0, from - this.#from);
      this.#from = from;
    }
    if (this.#pieces.length === 0) this.#from = this.#to = from;
    let at = this.#to - tailAt;
    while (at < tail.length) {
      const last = this.#pieces.at(-1);
      // The last piece grows by whole lines, or by the rest of a line it ends inside: a line cut
      // between two pieces would show as two lines.
      const room = last ? PIECE_CHARS - last.length : 0;
      const grown = last ? pieceEnd(tail, at, room, last.data.endsWith('\n') ? 'lines' : 'words') : at;
      if (last && grown > at) {
        last.appendData(tail.slice(at, grown));
        at = grown;
        continue;
      }
      const end = pieceEnd(tail, at, PIECE_CHARS, 'any');
      const text = document.createTextNode(tail.slice(at, end));
      const piece = document.createElement('div');
      piece.append(text);
      this.element.append(piece);
      this.#pieces.push(text);
      at = end;
    }
    this.#to = to;
  }

  clear(): void {
    if (this.#pieces.length === 0) return;
    this.element.replaceChildren();
    this.#pieces = [];
    this.#from = this.#to = 0;
  }
}

/**
 * Where a piece starting at `at` ends, taking at most `room` characters: all the rest when it fits,
 * else after the last line break that fits; then, as `cut` allows, after the last space, or
 * `room` characters on (never inside a surrogate pair). `at` itself when nothing may be taken.
 */
function pieceEnd(text: string, at: number, room: number, cut: 'lines' | 'words' | 'any'): number {
  if (room <= 0) return at;
  const limit = at + room;
  if (limit >= text.length) return text.length;
  // Searched within the piece only: before it, a text without breaks would be searched to its start.
  const span = text.slice(at, limit);
  const line = span.lastIndexOf('\n');
  if (line !== -1) return at + line + 1;
  if (cut === 'lines') return at;
  const space = span.lastIndexOf(' ');
  if (space !== -1) return at + space + 1;
  if (cut === 'words') return at;
  const code = text.charCodeAt(limit - 1);
  return code >= 0xd800 && code <= 0xdbff ? limit - 1 : limit;
}
