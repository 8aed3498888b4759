/**
 * Element refs for one document. A ref names one element for the life of the document and is
 * never handed to another element: numbers come from a per-tab counter the panel keeps, so they
 * also never repeat across navigations.
 */

export class RefRegistry {
  readonly #byRef = new Map<string, WeakRef<Element>>();
  readonly #byElement = new WeakMap<Element, string>();
  #next = 1;

  constructor(private readonly prefix: string) {}

  /** Continue numbering from the tab's counter, never going backwards. */
  startAt(refBase: number): void {
    this.#next = Math.max(this.#next, refBase);
  }

  get next(): number {
    return this.#next;
  }

  refFor(element: Element): string {
    let ref = this.#byElement.get(element);
    if (!ref) {
      ref = `${this.prefix}e${this.#next++}`;
      this.#byElement.set(element, ref);
      this.#byRef.set(ref, new WeakRef(element));
    }
    return ref;
  }

  /** The element a ref names, or undefined when it left the document or was never ours. */
  resolve(ref: string): Element | undefined {
    const element = this.#byRef.get(ref)?.deref();
    if (!element || !element.isConnected) return undefined;
    return element;
  }

  owns(ref: string): boolean {
    return ref.startsWith(this.prefix) && /^(?:f\d+)?e\d+$/.test(ref);
  }
}

export function refPrefix(frameId: number): string {
  return frameId === 0 ? '' : `f${frameId}`;
}
