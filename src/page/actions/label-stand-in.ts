/**
 * Custom checkboxes, radio buttons and file buttons hide the real input (opacity 0, a 1 px clipped
 * box, off-screen, or not rendered at all) and draw the control in its label instead. A person
 * clicks the label and the browser passes the click on to the input, so the pointer goes to the
 * label here too: the snapshot's ref stays on the input, which holds the state.
 */

function hiddenByClip(style: CSSStyleDeclaration): boolean {
  const positioned = style.position === 'absolute' || style.position === 'fixed';
  if (positioned && style.clip && style.clip !== 'auto') return true;
  return /^inset\(\s*50%/.test(style.clipPath) || /^(circle|ellipse)\(0(px)?[\s)]/.test(style.clipPath);
}

/** Drawn so that nobody sees it, although it is in the layout (or not rendered at all). */
export function isVisuallyHidden(input: Element): boolean {
  const view = input.ownerDocument.defaultView;
  if (!view) return false;
  const style = view.getComputedStyle(input);
  if (style.display === 'none' || Number(style.opacity) === 0 || hiddenByClip(style)) return true;
  const box = input.getBoundingClientRect();
  if (box.width <= 1 || box.height <= 1) return true;
  // Pushed out of the page to the left or above, where no scrolling can reach it.
  return box.right + view.scrollX <= 0 || box.bottom + view.scrollY <= 0;
}

function isShown(label: Element): boolean {
  const visible = (label as Element & { checkVisibility?(o: object): boolean }).checkVisibility?.({
    checkVisibilityCSS: true,
    opacityProperty: true,
  });
  if (visible === false) return false;
  for (const rect of label.getClientRects()) if (rect.width > 1 && rect.height > 1) return true;
  return false;
}

/** The visible label to click for a visually hidden input, or undefined when it is clicked itself. */
export function labelStandIn(element: Element): HTMLLabelElement | undefined {
  if (!(element instanceof HTMLInputElement) || !element.labels?.length) return undefined;
  // A disabled input is refused as itself, not waved through by its label.
  if (element.matches(':disabled')) return undefined;
  if (!isVisuallyHidden(element)) return undefined;
  for (const label of element.labels) if (isShown(label)) return label;
  return undefined;
}

const OWN_ACTIVATION = 'a[href], area[href], button, input, select, textarea, summary';

/**
 * Where the click through a label goes: what the pointer hit, unless that is a link or another
 * control inside the label ("I accept the terms"), whose own action would replace the label's.
 * The label itself takes the click then, as a person clicking beside the link would.
 */
export function pressTargetInLabel(label: HTMLLabelElement, control: Element, hit: Element): Element {
  const own = hit.closest(OWN_ACTIVATION);
  if (!own || own === control || !label.contains(own)) return hit;
  return label;
}
