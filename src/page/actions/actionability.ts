/**
 * Before acting, the element must be able to take the action the way a person's would: still in
 * the page, visible, enabled (and editable, for typing), and — for pointer actions — holding still
 * and the topmost thing at the point of action. Checks are retried for a short while (a menu sliding in,
 * a spinner going away); when time runs out the refusal names the check that failed, and nothing
 * has been done to the page.
 */
import { animatedProperties, ending, movesBox, showsOrMoves } from './animations';
import { FRAMES_REMEDY } from './hidden-frames';
import { isAgentOutline } from '../outline';
import { composedContains, composedParent, firstBox } from './composed-tree';
import { describeElement } from './describe';
import { ownWidgetCover } from './own-widget';
import { nextBeat, sleep, throwIfCancelled } from './timing';

export { composedContains, composedParent };

export type ActionCheck = 'attached' | 'visible' | 'enabled' | 'editable' | 'stable' | 'receives-events';

export interface ActionabilityOptions {
  enabled?: boolean;
  editable?: boolean;
  /** Pointer actions: the element must hold still and be the one hit at its centre. */
  hitTest?: boolean;
  timeoutMs?: number;
}

export interface ActionPoint {
  x: number;
  y: number;
  /** The innermost element at the point (the target or something inside it): events go there. */
  hit: Element;
  /**
   * What is on top of the target there, when it belongs to the target's own widget (a select's
   * overlay over its input): `hit` is inside it, and the action says so.
   */
  cover?: Element;
}

export const ACTIONABILITY_TIMEOUT_MS = 2_000;

export class NotActionable extends Error {
  constructor(
    readonly check: ActionCheck,
    readonly detail: string,
    readonly advice: string,
    /** Waiting cannot change the answer, so the caller hears it at once rather than at the deadline. */
    readonly final = false,
  ) {
    super(detail);
  }
}

/**
 * The slot showing a host's own text at (x, y). A hit on text slotted into a shadow tree comes
 * back from `elementFromPoint` as the host (the text's parent there); the slot is where it is drawn.
 */
function slotOfTextAt(host: Element, x: number, y: number): HTMLSlotElement | undefined {
  let range: Range | undefined;
  for (let child = host.firstChild; child; child = child.nextSibling) {
    const slot = child.nodeType === 3 ? (child as Text).assignedSlot : null;
    if (!slot) continue;
    range ??= host.ownerDocument.createRange();
    range.selectNodeContents(child);
    for (const rect of range.getClientRects()) {
      if (x >= rect.left && x <= rect.right && y >= rect.top && y <= rect.bottom) return slot;
    }
  }
  return undefined;
}

/**
 * `elementFromPoint` that descends into open shadow roots, as the hit test of a real click does:
 * each shadow root is asked in turn, and a hit that comes back retargeted to its host (the host's
 * slotted text) goes on to the slot that shows the text.
 */
export function deepElementFromPoint(document: Document, x: number, y: number): Element | null {
  let hit = document.elementFromPoint(x, y);
  // The outline takes no pointer events; should a page's styles undo that, it still never counts as a cover.
  if (hit && isAgentOutline(hit)) hit = document.elementsFromPoint(x, y).find((e) => !isAgentOutline(e)) ?? null;
  while (hit) {
    if (hit.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y);
      if (inner && inner !== hit) {
        hit = inner;
        continue;
      }
    }
    const slot = slotOfTextAt(hit, x, y);
    if (!slot) break;
    hit = slot;
  }
  return hit;
}

/** What to name as covering: a slot is named by the component whose content it shows. */
function coverOf(hit: Element): Element {
  const root = hit.getRootNode();
  return hit instanceof HTMLSlotElement && root instanceof ShadowRoot ? root.host : hit;
}

/** The shadow hosts an element lives in, innermost first. */
function hostsOf(element: Element): Element[] {
  const hosts: Element[] = [];
  for (let root = element.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode()) {
    hosts.push(root.host);
  }
  return hosts;
}

function isDisabled(element: Element): boolean {
  if (element.matches(':disabled')) return true;
  for (let current: Node | null = element; current; current = composedParent(current)) {
    if (current instanceof Element && current.getAttribute('aria-disabled') === 'true') return true;
  }
  return false;
}

function isReadOnly(element: Element): boolean {
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) return element.readOnly;
  if (element instanceof HTMLElement && element.isContentEditable) return false;
  return element.getAttribute('aria-readonly') === 'true';
}

function isVisible(element: Element): boolean {
  const checked = (element as Element & { checkVisibility?(o: object): boolean }).checkVisibility?.({
    checkVisibilityCSS: true,
  });
  if (checked === false) return false;
  return firstBox(element) !== undefined;
}

function inViewport(rect: DOMRect, view: Window): boolean {
  return rect.top >= 0 && rect.left >= 0 && rect.bottom <= view.innerHeight && rect.right <= view.innerWidth;
}

/**
 * Whether the box's centre shows inside every scrolling or clipping box around the element: a row
 * a grid has rendered below its own scroll area is inside the window yet shows nowhere.
 */
function shownByClippers(element: Element, rect: DOMRect): boolean {
  const x = rect.left + rect.width / 2;
  const y = rect.top + rect.height / 2;
  const { body, documentElement } = element.ownerDocument;
  // The body's and the root's overflow belongs to the viewport, checked already.
  for (
    let node = composedParent(element);
    node instanceof Element && node !== body && node !== documentElement;
    node = composedParent(node)
  ) {
    const style = getComputedStyle(node);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const box = node.getBoundingClientRect();
    const left = box.left + node.clientLeft;
    const top = box.top + node.clientTop;
    const clipsX = style.overflowX !== 'visible' && (x < left || x > left + node.clientWidth);
    const clipsY = style.overflowY !== 'visible' && (y < top || y > top + node.clientHeight);
    if (clipsX || clipsY) return false;
  }
  return true;
}

function sameBox(a: DOMRect, b: DOMRect): boolean {
  return Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5 && a.width === b.width && a.height === b.height;
}

/**
 * A running animation that moves the element or an ancestor. Comparing boxes across a frame misses
 * these when frames are slow to come (the animation clock only advances with a frame), so the
 * animations are asked directly. A colour easing for ever (a glowing card) moves nothing. In a
 * hidden tab a fade that would end never does either: an element fading in stays unseen.
 */
function movingAnimation(element: Element): boolean {
  const hidden = element.ownerDocument.visibilityState === 'hidden';
  for (const animation of element.ownerDocument.getAnimations()) {
    if (animation.playState !== 'running') continue;
    const target = (animation.effect as KeyframeEffect | null)?.target;
    if (!target || !composedContains(target, element)) continue;
    const properties = animatedProperties(animation);
    if (properties.some(movesBox)) return true;
    if (hidden && ending(animation) && properties.some(showsOrMoves)) return true;
  }
  return false;
}

/** The centre of the part of the box inside the viewport. */
function centreInView(rect: DOMRect, view: Window): { x: number; y: number } {
  const left = Math.max(rect.left, 0);
  const right = Math.min(rect.right, view.innerWidth);
  const top = Math.max(rect.top, 0);
  const bottom = Math.min(rect.bottom, view.innerHeight);
  return { x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2) };
}

/**
 * Whether a click on `hit` reaches the target: a hit inside it (through slots too), on a label of
 * it (a custom checkbox drawn by its label), or on the shadow host the target lives in, which is
 * where a hit lands when nothing inside the shadow tree claims the point (slotted text, a part
 * that lets the pointer through). Anything else is on top of the target.
 */
function reaches(target: Element, hit: Element): boolean {
  if (composedContains(target, hit)) return true;
  if (hostsOf(target).includes(hit)) return true;
  const label = hit.closest('label');
  return !!label && (label.control === target || composedContains(label, target));
}

/** The element's box once it holds still for a beat; throws when it moves or disappears. */
async function stableBox(element: Element, box: DOMRect, signal: AbortSignal): Promise<DOMRect> {
  await nextBeat(signal);
  const settled = firstBox(element);
  if (!settled) {
    throw new NotActionable('visible', 'it disappeared', 'Call snapshot again to see the page as it is now.');
  }
  const animating = movingAnimation(element);
  if (!sameBox(box, settled) || animating) {
    // A hidden tab draws no frames, so its animations never finish: waiting would not help.
    if (element.ownerDocument.visibilityState === 'hidden') {
      throw new NotActionable(
        'stable',
        'it is still moving or fading in (animating), and this tab is not in front, so Chrome draws no frames for it and the ' +
          'animation will not finish',
        FRAMES_REMEDY,
        animating,
      );
    }
    throw new NotActionable(
      'stable',
      'it is still moving (animating)',
      'Wait for the page to finish its animation (wait_for), then try again.',
    );
  }
  return settled;
}

async function attempt(element: Element, options: ActionabilityOptions, signal: AbortSignal): Promise<ActionPoint> {
  const view = element.ownerDocument.defaultView!;
  if (!element.isConnected) {
    throw new NotActionable('attached', 'it is no longer in the page', 'Call snapshot again and use a fresh ref.');
  }
  if (!isVisible(element)) {
    throw new NotActionable(
      'visible',
      'it is not visible (hidden, collapsed or of zero size)',
      'Open or reveal the part of the page that shows it first, or pick a visible element from a fresh snapshot.',
    );
  }
  if (options.enabled && isDisabled(element)) {
    throw new NotActionable(
      'enabled',
      'it is disabled',
      'Complete what the page needs first, or pick another element.',
    );
  }
  if (options.editable && isReadOnly(element)) {
    throw new NotActionable('editable', 'it is read-only', 'Pick a field that accepts input.');
  }
  let box = firstBox(element)!;
  if (!inViewport(box, view) || !shownByClippers(element, box)) {
    element.scrollIntoView({ block: 'center', inline: 'center', behavior: 'instant' });
    box = firstBox(element) ?? box;
  }
  // Only a pointer needs the element to hold still: keys and values go to the element, not a point.
  const settled = options.hitTest ? await stableBox(element, box, signal) : box;
  const { x, y } = centreInView(settled, view);
  const hit = deepElementFromPoint(element.ownerDocument, x, y);
  if (options.hitTest && hit && !reaches(element, hit) && ownWidgetCover(element, hit)) {
    return { x, y, hit, cover: coverOf(hit) };
  }
  if (options.hitTest) {
    if (!hit || !reaches(element, hit)) {
      const cover = hit ? describeElement(coverOf(hit)) : 'nothing (it is outside the visible area)';
      throw new NotActionable(
        'receives-events',
        `it is covered: ${cover} is on top of it at (${x}, ${y})`,
        'Dismiss or close what covers it first (look for it in a snapshot), then try again.',
      );
    }
  }
  return { x, y, hit: hit && composedContains(element, hit) ? hit : element };
}

/** Waits (bounded) until the element can take the action; throws `NotActionable` naming the check. */
export async function ensureActionable(
  element: Element,
  options: ActionabilityOptions,
  signal: AbortSignal,
): Promise<ActionPoint> {
  const deadline = performance.now() + (options.timeoutMs ?? ACTIONABILITY_TIMEOUT_MS);
  const pauses = [0, 20, 50, 100];
  for (let round = 0; ; round++) {
    throwIfCancelled(signal);
    try {
      return await attempt(element, options, signal);
    } catch (error) {
      if (!(error instanceof NotActionable) || error.check === 'attached' || error.final) throw error;
      if (performance.now() >= deadline) throw error;
    }
    await sleep(pauses[Math.min(round, pauses.length - 1)]!, signal);
  }
}
