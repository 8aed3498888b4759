/**
 * When something is on top of the element an action targets, whether it is part of the same
 * control: a person's click there goes to the control they meant, so it is not a cover.
 */
import { composedContains, composedParent, firstBox } from './composed-tree';

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

function isWidget(element: Element): boolean {
  const role = element.getAttribute('role');
  if (role && WIDGET_ROLES.has(role)) return true;
  return (
    element.localName === 'label' ||
    element.localName === 'button' ||
    (element.localName === 'a' && element.hasAttribute('href'))
  );
}

function byIds(element: Element, attribute: string): Element[] {
  const ids = element.getAttribute(attribute)?.trim().split(/\s+/) ?? [];
  const root = element.getRootNode() as Document | ShadowRoot;
  return ids.flatMap((id) => (id ? [root.getElementById(id)].filter((e): e is HTMLElement => !!e) : []));
}

/** Interactive elements inside `container` other than `target` and what is inside it. */
function holdsOtherControl(container: Element, target: Element): boolean {
  for (const control of container.querySelectorAll(
    'a[href], button, input, select, textarea, [role=button], [role=link], [role=checkbox], [role=textbox], [role=combobox]',
  ))
    if (!composedContains(target, control) && !composedContains(control, target)) return true;
  return false;
}

/**
 * Whether `hit`, on top of `target`, is part of the same widget, so a person's click there goes to
 * the widget they meant: inside the target's nearest interactive ancestor (a combobox wrapping its
 * input and the overlay showing its value), inside what the target controls or owns, or inside the
 * target's own small wrapper that holds no other control (a select drawn over its own input).
 * Anything else — a dialog, a banner, a neighbour — is a real cover.
 */
export function ownWidgetCover(target: Element, hit: Element): boolean {
  for (let node = composedParent(target); node instanceof Element; node = composedParent(node)) {
    if (node.localName === 'body' || node.localName === 'html') break;
    if (!isWidget(node) && !node.hasAttribute('aria-haspopup')) continue;
    if (composedContains(node, hit)) return true;
    break;
  }
  for (const owned of [...byIds(target, 'aria-controls'), ...byIds(target, 'aria-owns')])
    if (composedContains(owned, hit)) return true;
  const box = firstBox(target);
  if (!box) return false;
  for (let node = composedParent(target); node instanceof Element; node = composedParent(node)) {
    if (node.localName === 'body' || node.localName === 'html') return false;
    const outer = node.getBoundingClientRect();
    // A wrapper much larger than the control is a layout box, not the control's own frame.
    if (outer.width > box.width + 64 || outer.height > box.height + 48) return false;
    if (holdsOtherControl(node, target)) return false;
    if (composedContains(node, hit)) return true;
  }
  return false;
}
