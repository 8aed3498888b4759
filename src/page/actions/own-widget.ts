/**
 * When something is on top of the element an action targets, whether it is part of the same
 * control: a person's click there goes to the control they meant, so it is not a cover.
 */
import { composedContains, composedParent } from './composed-tree';
import { idRefs } from '../id-refs';

/** Roles of controls a person operates as one piece, whatever their parts are drawn with. */
const WIDGET_ROLES = new Set([
  'button',
  'checkbox',
  'combobox',
  'listbox',
  'radio',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'textbox',
  'tab',
  'option',
  'menuitem',
  'gridcell',
  'treeitem',
]);

/**
 * An element a person operates as one control: an interactive role, a label, a native button or
 * link, a pop-up opener, or — as a snapshot decides it — an element with a hand cursor of its own
 * (a script-made select whose parts are drawn over each other).
 */
function isWidget(element: Element): boolean {
  const role = element.getAttribute('role');
  if (role && WIDGET_ROLES.has(role)) return true;
  const tag = element.localName;
  if (tag === 'label' || tag === 'button' || (tag === 'a' && element.hasAttribute('href'))) return true;
  if (element.hasAttribute('aria-haspopup')) return true;
  const view = element.ownerDocument.defaultView;
  if (!view || view.getComputedStyle(element).cursor !== 'pointer') return false;
  const parent = composedParent(element);
  return !(parent instanceof Element) || view.getComputedStyle(parent).cursor !== 'pointer';
}

function byIds(element: Element, attribute: string): Element[] {
  const root = element.getRootNode() as Document | ShadowRoot;
  return idRefs(element, attribute).flatMap((id) => [root.getElementById(id)].filter((e): e is HTMLElement => !!e));
}

/**
 * Whether `hit`, on top of `target`, is part of the same widget, so a person's click there goes to
 * the control they meant: inside the target's nearest interactive ancestor (a combobox wrapping its
 * input and the text showing its value), or inside what the target controls or owns. Anything
 * else — a dialog, a banner, a component's own "Sold out" over its button — is a real cover.
 */
export function ownWidgetCover(target: Element, hit: Element): boolean {
  for (let node = composedParent(target); node instanceof Element; node = composedParent(node)) {
    if (node.localName === 'body' || node.localName === 'html') break;
    if (!isWidget(node)) continue;
    if (composedContains(node, hit)) return true;
    break;
  }
  for (const owned of [...byIds(target, 'aria-controls'), ...byIds(target, 'aria-owns')])
    if (composedContains(owned, hit)) return true;
  return false;
}
