/**
 * Scrolling as a reader does it: the page (or, when the page itself does not scroll, its main
 * scrolling area), or the scrolling container an element sits in. Scrolls are instant, whatever
 * `scroll-behavior` the page sets, so the position can be reported straight after.
 */

function canScroll(element: Element, axis: 'x' | 'y'): boolean {
  const style = getComputedStyle(element);
  const overflow = axis === 'y' ? style.overflowY : style.overflowX;
  const room = axis === 'y' ? element.scrollHeight - element.clientHeight : element.scrollWidth - element.clientWidth;
  if (room <= 1) return false;
  const root = element === element.ownerDocument.scrollingElement;
  return root
    ? overflow !== 'hidden' && overflow !== 'clip'
    : overflow === 'auto' || overflow === 'scroll' || overflow === 'overlay';
}

/**
 * The page's scroller: the document when it scrolls, else the largest visible scrolling element
 * (apps that fix the body and scroll an inner pane).
 */
export function pageScroller(document: Document): Element {
  const root = document.scrollingElement ?? document.documentElement;
  if (canScroll(root, 'y') || canScroll(root, 'x')) return root;
  let best: Element | undefined;
  let bestArea = 0;
  for (const element of document.querySelectorAll('body *')) {
    if (element.clientHeight < 50 || !canScroll(element, 'y')) continue;
    const area = element.clientWidth * element.clientHeight;
    if (area > bestArea) {
      best = element;
      bestArea = area;
    }
  }
  return best ?? root;
}

/** The element itself when it scrolls, else its nearest scrolling ancestor, else the page. */
export function scrollerFor(element: Element): Element {
  const document = element.ownerDocument;
  if (element === document.body || element === document.documentElement) return pageScroller(document);
  for (let current: Element | null = element; current; current = current.parentElement) {
    if (current === document.body || current === document.documentElement) break;
    if (canScroll(current, 'y') || canScroll(current, 'x')) return current;
  }
  return pageScroller(document);
}

export function scrollByAmount(scroller: Element, dx: number, dy: number): void {
  scroller.scrollBy({ left: dx, top: dy, behavior: 'instant' });
}

export function scrollToEdge(scroller: Element, edge: 'top' | 'bottom' | 'left' | 'right'): void {
  if (edge === 'top') scroller.scrollTo({ top: 0, behavior: 'instant' });
  else if (edge === 'bottom') scroller.scrollTo({ top: scroller.scrollHeight, behavior: 'instant' });
  else if (edge === 'left') scroller.scrollTo({ left: 0, behavior: 'instant' });
  else scroller.scrollTo({ left: scroller.scrollWidth, behavior: 'instant' });
}

export interface ScrollPosition {
  top: number;
  left: number;
  /** The furthest `top` can go. */
  maxTop: number;
  maxLeft: number;
}

export function positionOf(scroller: Element): ScrollPosition {
  return {
    top: Math.round(scroller.scrollTop),
    left: Math.round(scroller.scrollLeft),
    maxTop: Math.max(0, Math.round(scroller.scrollHeight - scroller.clientHeight)),
    maxLeft: Math.max(0, Math.round(scroller.scrollWidth - scroller.clientWidth)),
  };
}

/** "at 1280 of 5000 px (26%)", "at the bottom (5000 px)". */
export function describePosition(position: ScrollPosition): string {
  if (position.maxTop === 0) return 'the content fits without vertical scrolling';
  if (position.top <= 0) return `at the top (${position.maxTop} px to scroll)`;
  if (position.top >= position.maxTop) return `at the bottom (${position.maxTop} px)`;
  return `at ${position.top} of ${position.maxTop} px (${Math.round((position.top / position.maxTop) * 100)}%)`;
}
