/** What kind of form field an element is, which decides how a value reaches it. */

/** An editor that takes text through an EditContext (see edit-context.ts). */
function hasEditContext(element: Element): boolean {
  return !!(element as { editContext?: unknown }).editContext;
}

/** Inputs that take typed text, key by key. */
const TEXT_TYPES = new Set(['', 'text', 'search', 'email', 'url', 'tel', 'password', 'number']);
/** Inputs whose value is set whole (a picker, not a keyboard, fills them in a real browser). */
const VALUE_TYPES = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color', 'range']);

export type FieldKind = 'text' | 'value' | 'checkable' | 'select' | 'file' | 'editable' | 'button' | 'other';

export function fieldKind(element: Element): FieldKind {
  if (element instanceof HTMLTextAreaElement) return 'text';
  if (element instanceof HTMLSelectElement) return 'select';
  if (element instanceof HTMLInputElement) {
    const type = element.type.toLowerCase();
    if (TEXT_TYPES.has(type)) return 'text';
    if (VALUE_TYPES.has(type)) return 'value';
    if (type === 'checkbox' || type === 'radio') return 'checkable';
    if (type === 'file') return 'file';
    if (['submit', 'reset', 'button', 'image'].includes(type)) return 'button';
    return 'other';
  }
  if (element instanceof HTMLElement && (element.isContentEditable || hasEditContext(element))) return 'editable';
  return 'other';
}

/**
 * The field an element stands for: itself when it takes input, the control of a label, or the one
 * form field inside a wrapper (a styled container around an input).
 */
export function fieldFor(element: Element): Element {
  if (fieldKind(element) !== 'other') return element;
  if (element instanceof HTMLLabelElement && element.control) return element.control;
  const inner = element.querySelectorAll(
    'input:not([type=hidden]), textarea, select, [contenteditable=""], [contenteditable="true"]',
  );
  if (inner.length === 1) return inner[0]!;
  // An EditContext editor's element carries no attribute that says so: look for it by its property.
  if (!inner.length)
    for (const candidate of element.querySelectorAll('*')) if (hasEditContext(candidate)) return candidate;
  return element;
}

/** The native value setter, so frameworks that track `value` (React) see a real change. */
export function setNativeValue(
  element: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  value: string,
): void {
  const prototype = Object.getPrototypeOf(element) as object;
  const setter = Object.getOwnPropertyDescriptor(prototype, 'value')?.set;
  if (setter) setter.call(element, value);
  else element.value = value;
}
