/**
 * HTML5 drag and drop as the page sees it: `DragEvent`s carrying one `DataTransfer`, the element
 * under the pointer getting dragenter/dragleave as the pointer crosses into it and dragover on every
 * move, and a drop only where the page said it takes one (by cancelling dragover), as browsers do.
 */
import { composedParent, deepElementFromPoint } from './actionability';

interface DragPoint {
  x: number;
  y: number;
}

const NOT_CANCELABLE = new Set(['dragleave', 'dragend']);

/** Fires one drag event; true when the page cancelled it (for dragover: "a drop is welcome here"). */
export function fireDrag(
  target: Element,
  type: string,
  at: DragPoint,
  dataTransfer: DataTransfer,
  relatedTarget: Element | null = null,
): boolean {
  const view = target.ownerDocument.defaultView!;
  const released = type === 'drop' || type === 'dragend';
  const event = new DragEvent(type, {
    bubbles: true,
    cancelable: !NOT_CANCELABLE.has(type),
    composed: true,
    view,
    clientX: at.x,
    clientY: at.y,
    screenX: at.x + view.screenX,
    screenY: at.y + view.screenY,
    buttons: released ? 0 : 1,
    dataTransfer,
    relatedTarget,
  });
  return !target.dispatchEvent(event);
}

/** The drop effect a drop takes when the page left it open: the first the source allows. */
function effectFor(dataTransfer: DataTransfer): DataTransfer['dropEffect'] {
  const allowed = dataTransfer.effectAllowed;
  if (allowed === 'none') return 'none';
  if (/move|all|uninitialized/i.test(allowed)) return 'move';
  return /copy/i.test(allowed) ? 'copy' : 'link';
}

/**
 * The outermost element around `element` below the body. Pages often cancel every dragover at the
 * document or body, only so that a stray drop does not open the file in the tab; that says nothing
 * about the element, so a drop counts as welcome only when it was accepted inside this region.
 */
export function regionBelowBody(element: Element): Element | undefined {
  const top = element.ownerDocument.body;
  if (element === top || element === element.ownerDocument.documentElement) return undefined;
  let region = element;
  for (
    let parent = composedParent(region);
    parent instanceof Element && parent !== top;
    parent = composedParent(region)
  ) {
    if (parent === element.ownerDocument.documentElement) break;
    region = parent;
  }
  return region;
}

/** The element under a dragged pointer, followed from move to move. */
export class DragOver {
  #over: Element | undefined;
  #accepted = false;

  /** `region`: where a drop must be accepted to count (see `regionBelowBody`); anywhere when absent. */
  constructor(
    private readonly document: Document,
    private readonly dataTransfer: DataTransfer,
    private readonly region?: Element,
  ) {}

  /** Whether the page cancelled a dragover, judged as it leaves the region. */
  #dragover(target: Element, at: DragPoint): boolean {
    const region = this.region;
    if (!region) return fireDrag(target, 'dragover', at, this.dataTransfer);
    let accepted = false;
    const seen = (event: Event) => (accepted = event.defaultPrevented);
    region.addEventListener('dragover', seen);
    try {
      fireDrag(target, 'dragover', at, this.dataTransfer);
    } finally {
      region.removeEventListener('dragover', seen);
    }
    return accepted;
  }

  /** The element the drop would land on now, if any. */
  get over(): Element | undefined {
    return this.#over;
  }

  /** Moves the pointer to `at`: enter/leave when it crosses into another element, then dragover there. */
  moveTo(at: DragPoint): void {
    const hit = deepElementFromPoint(this.document, at.x, at.y) ?? undefined;
    const previous = this.#over?.isConnected ? this.#over : undefined;
    if (hit !== previous) {
      if (hit) fireDrag(hit, 'dragenter', at, this.dataTransfer, previous ?? null);
      if (previous) fireDrag(previous, 'dragleave', at, this.dataTransfer, hit ?? null);
      this.#over = hit;
    }
    if (!this.#over) {
      this.#accepted = false;
      return;
    }
    this.dataTransfer.dropEffect = effectFor(this.dataTransfer);
    this.#accepted = this.#dragover(this.#over, at);
  }

  /** Releases at `at`: a drop where the last dragover was cancelled, else a dragleave. Whether it dropped. */
  release(at: DragPoint): boolean {
    const over = this.#over?.isConnected ? this.#over : undefined;
    if (!over) return false;
    if (!this.#accepted) {
      this.dataTransfer.dropEffect = 'none';
      fireDrag(over, 'dragleave', at, this.dataTransfer);
      return false;
    }
    if (this.dataTransfer.dropEffect === 'none') this.dataTransfer.dropEffect = effectFor(this.dataTransfer);
    fireDrag(over, 'drop', at, this.dataTransfer);
    return true;
  }
}
