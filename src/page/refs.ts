/**
 * Element refs for one document. A ref names one element for the life of the document and is
 * never handed to another element: numbers come from a per-tab counter the panel keeps (passed in
 * as `refBase`), so they also never repeat across navigations; refs made in a child frame carry
 * the frame's id (`f7e12`), and Chrome never reuses a frame id within a tab.
 */

/** A ref's text: `e12`, or `f3e12` for an element of frame 3; the groups are the frame and the number. */
export const REF_ID = '(?:f(\\d+))?e(\\d+)';
const REF = new RegExp(`^${REF_ID}$`);

export class RefRegistry {
  /**
   * Strong references, pruned after every snapshot of elements that left the document, so a long
   * session does not hold removed subtrees (a WeakRef per element costs more than the pruning).
   */
  readonly #byRef = new Map<string, Element>();
  readonly #byElement = new WeakMap<Element, string>();
  #next = 1;

  constructor(readonly prefix: string) {}

  /** Continue numbering from the tab's counter, never going backwards. */
  startAt(refBase: number): void {
    this.#next = Math.max(this.#next, refBase);
  }

  get next(): number {
    return this.#next;
  }

  refFor(element: Element): string {
    let ref = this.#byElement.get(element);
    if (ref) {
      // An element that left and came back keeps its ref: it still names the same element.
      if (!this.#byRef.has(ref)) this.#byRef.set(ref, element);
      return ref;
    }
    ref = `${this.prefix}e${this.#next++}`;
    this.#byElement.set(element, ref);
    this.#byRef.set(ref, element);
    return ref;
  }

  /** The element a ref names, or undefined when it left the document or was never ours. */
  resolve(ref: string): Element | undefined {
    const element = this.#byRef.get(ref);
    if (!element || !element.isConnected) return undefined;
    return element;
  }

  owns(ref: string): boolean {
    const parsed = parseRef(ref);
    return parsed !== undefined && refPrefix(parsed.frameId) === this.prefix;
  }

  /** Forgets elements that left the document: their refs are refused from now on, for good. */
  prune(): void {
    for (const [ref, element] of this.#byRef) if (!element.isConnected) this.#byRef.delete(ref);
  }
}

export function refPrefix(frameId: number): string {
  return frameId === 0 ? '' : `f${frameId}`;
}

/** The frame a ref belongs to and its number, or undefined when it is not shaped like a ref. */
export function parseRef(ref: string): { frameId: number; n: number } | undefined {
  const match = REF.exec(ref.trim());
  if (!match) return undefined;
  return { frameId: match[1] ? Number(match[1]) : 0, n: Number(match[2]) };
}
