/**
 * The pointer as the page sees it: the event sequence of a mouse moving onto an element and
 * pressing a button there, in the order browsers send it (pointer events before their mouse
 * twins, enter/leave along the ancestor chain, focus on mousedown, click after mouseup). The
 * pointer's position is remembered per document so the next move leaves the previous element.
 */
import { focusElement } from './focus';
import { composedParent } from './actionability';
import { emulateHover } from './hover-style';

export type MouseButton = 'left' | 'middle' | 'right';

const BUTTON_INDEX: Record<MouseButton, number> = { left: 0, middle: 1, right: 2 };
const BUTTON_MASK: Record<MouseButton, number> = { left: 1, middle: 4, right: 2 };

interface PointerState {
  over: Element | undefined;
  x: number;
  y: number;
}

const pointers = new WeakMap<Document, PointerState>();

function chainOf(element: Element | undefined): Element[] {
  const chain: Element[] = [];
  for (let node: Node | null | undefined = element; node; node = composedParent(node)) {
    if (node instanceof Element) chain.push(node);
  }
  return chain;
}

interface EventOptions {
  x: number;
  y: number;
  button?: number;
  buttons?: number;
  detail?: number;
  relatedTarget?: Element | null;
  bubbles?: boolean;
}

function fire(target: Element, type: string, options: EventOptions): boolean {
  const view = target.ownerDocument.defaultView!;
  const init: PointerEventInit = {
    bubbles: options.bubbles ?? true,
    cancelable: options.bubbles ?? true,
    composed: true,
    view,
    clientX: options.x,
    clientY: options.y,
    screenX: options.x + view.screenX,
    screenY: options.y + view.screenY,
    button: options.button ?? 0,
    buttons: options.buttons ?? 0,
    detail: options.detail ?? 0,
    relatedTarget: options.relatedTarget ?? null,
  };
  const event = type.startsWith('pointer')
    ? new PointerEvent(type, { ...init, pointerId: 1, pointerType: 'mouse', isPrimary: true })
    : new MouseEvent(type, init);
  return target.dispatchEvent(event);
}

/**
 * Moves the pointer onto `hit` at (x, y): leave/out on the old element, over/enter/move on the new.
 * `buttons` are the buttons held meanwhile (1: the left one, during a drag).
 */
export function movePointer(hit: Element, x: number, y: number, buttons = 0): void {
  const document = hit.ownerDocument;
  const state = pointers.get(document) ?? { over: undefined, x: 0, y: 0 };
  const previous = state.over?.isConnected ? state.over : undefined;
  if (previous !== hit) {
    const oldChain = chainOf(previous);
    const newChain = chainOf(hit);
    const leaving = oldChain.filter((e) => !newChain.includes(e));
    const entering = newChain.filter((e) => !oldChain.includes(e)).reverse();
    // Pointer events come before their mouse twins; enter and leave walk the ancestors.
    if (previous) {
      fire(previous, 'pointerout', { x, y, relatedTarget: hit });
      for (const element of leaving) fire(element, 'pointerleave', { x, y, relatedTarget: hit, bubbles: false });
      fire(previous, 'mouseout', { x, y, relatedTarget: hit });
      for (const element of leaving) fire(element, 'mouseleave', { x, y, relatedTarget: hit, bubbles: false });
    }
    const from = previous ?? null;
    fire(hit, 'pointerover', { x, y, relatedTarget: from });
    for (const element of entering) fire(element, 'pointerenter', { x, y, relatedTarget: from, bubbles: false });
    fire(hit, 'mouseover', { x, y, relatedTarget: from });
    for (const element of entering) fire(element, 'mouseenter', { x, y, relatedTarget: from, bubbles: false });
    emulateHover(document, newChain);
  }
  fire(hit, 'pointermove', { x, y, buttons });
  fire(hit, 'mousemove', { x, y, buttons });
  pointers.set(document, { over: hit, x, y });
}

const FOCUSABLE =
  'a[href], area[href], button, input, select, textarea, iframe, summary, [tabindex], [contenteditable=""], [contenteditable="true"]';

/** Where a mousedown moves focus: the nearest focusable ancestor, or nowhere (focus leaves). */
function focusOnPress(hit: Element): void {
  for (const element of chainOf(hit)) {
    if (element instanceof HTMLElement && element.matches(FOCUSABLE) && !element.matches(':disabled')) {
      focusElement(element);
      return;
    }
  }
  const active = hit.ownerDocument.activeElement;
  if (active instanceof HTMLElement && active !== hit.ownerDocument.body) active.blur();
}

/** One press and release of `button` at (x, y); `count` is the click count (2 for the second of a double). */
function pressOnce(hit: Element, x: number, y: number, button: MouseButton, count: number): void {
  const index = BUTTON_INDEX[button];
  const mask = BUTTON_MASK[button];
  fire(hit, 'pointerdown', { x, y, button: index, buttons: mask, detail: count });
  const down = fire(hit, 'mousedown', { x, y, button: index, buttons: mask, detail: count });
  if (down) focusOnPress(hit);
  if (button === 'right') fire(hit, 'contextmenu', { x, y, button: index, buttons: mask, detail: count });
  // The press may have re-rendered the element; the release goes where the pointer now is.
  const target = hit.isConnected ? hit : (hit.ownerDocument.elementFromPoint(x, y) ?? hit);
  fire(target, 'pointerup', { x, y, button: index, detail: count });
  fire(target, 'mouseup', { x, y, button: index, detail: count });
  if (button === 'left') fire(target, 'click', { x, y, button: index, detail: count });
  else fire(target, 'auxclick', { x, y, button: index, detail: count });
}

/** The left button goes down at (x, y) and stays down, as a drag begins; false when the page cancelled the mousedown. */
export function pressLeft(hit: Element, x: number, y: number): boolean {
  fire(hit, 'pointerdown', { x, y, button: 0, buttons: 1, detail: 1 });
  const down = fire(hit, 'mousedown', { x, y, button: 0, buttons: 1, detail: 1 });
  if (down) focusOnPress(hit);
  return down;
}

/** The left button comes up at (x, y), ending a drag: no click follows, the press and release being apart. */
export function releaseLeft(hit: Element, x: number, y: number): void {
  fire(hit, 'pointerup', { x, y, button: 0, detail: 1 });
  fire(hit, 'mouseup', { x, y, button: 0, detail: 1 });
}

export function clickAt(hit: Element, x: number, y: number, button: MouseButton, double: boolean): void {
  movePointer(hit, x, y);
  pressOnce(hit, x, y, button, 1);
  if (!double) return;
  const target = hit.isConnected ? hit : (hit.ownerDocument.elementFromPoint(x, y) ?? hit);
  pressOnce(target, x, y, button, 2);
  if (button === 'left') fire(target, 'dblclick', { x, y, button: 0, detail: 2 });
}
