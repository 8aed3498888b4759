/**
 * Moving the focus as a person's click or key would. In a document without the system focus (a
 * tab behind the person's, or a window of the agent's own that is not focused) Chrome moves
 * `activeElement` but fires no focus events, so a widget that wakes on `focus` (a combobox that
 * opens its list, an editor that starts taking text) never does. When `focus()` fired none, the
 * events a person's focus change brings are dispatched here: blur and focusout on the element
 * that had it, focus and focusin on the new one.
 */

export function focusElement(element: HTMLElement | SVGElement): void {
  const doc = element.ownerDocument;
  const previous = deepActive(doc);
  if (previous === element) return;
  let fired = false;
  const seen = () => (fired = true);
  element.addEventListener('focus', seen, { capture: true, once: true });
  element.focus({ preventScroll: true });
  element.removeEventListener('focus', seen, { capture: true });
  if (fired || deepActive(doc) !== element) return;
  const view = doc.defaultView!;
  if (previous && previous !== doc.body) {
    previous.dispatchEvent(new view.FocusEvent('blur', { relatedTarget: element }));
    previous.dispatchEvent(new view.FocusEvent('focusout', { bubbles: true, composed: true, relatedTarget: element }));
  }
  element.dispatchEvent(new view.FocusEvent('focus', { relatedTarget: previous }));
  element.dispatchEvent(new view.FocusEvent('focusin', { bubbles: true, composed: true, relatedTarget: previous }));
}

/** The focused element, inside open shadow roots too. */
function deepActive(doc: Document): Element | null {
  let active = doc.activeElement;
  while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
  return active;
}
