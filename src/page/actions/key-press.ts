/**
 * One key press with the defaults a browser would apply when the page does not cancel the key:
 * typing, deleting, moving focus with Tab, submitting with Enter, activating with Space, moving
 * through a drop-down, stepping a slider or number field, scrolling, closing a dialog or popover
 * with Escape, select-all and undo.
 */
import { describeElement } from './describe';
import { deleteText, fireChange, insertNewline, insertText, isTextControl, selectAllIn } from './editing';
import { fieldKind } from './fields';
import { dispatchKey, sendsKeypress } from './key-events';
import { insertsText, type KeyPress } from './keyboard';
import { stepByKey } from './stepping';
import { scrollerFor, scrollByAmount, scrollToEdge } from './scrolling';
import { enterDefault, spaceActivates } from './submit';

const FOCUSABLE =
  'a[href], area[href], button, input:not([type=hidden]), select, textarea, iframe, summary, [tabindex], [contenteditable=""], [contenteditable="true"]';

function isEditable(element: Element): boolean {
  const kind = fieldKind(element);
  return kind === 'text' || kind === 'editable';
}

/** Tab order: positive tabindex first, ascending, then the rest in document order. */
function tabOrder(document: Document): HTMLElement[] {
  const candidates = [...document.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) =>
      element.tabIndex >= 0 &&
      !element.matches(':disabled') &&
      !element.closest('[inert]') &&
      (element.checkVisibility?.({ checkVisibilityCSS: true }) ?? true),
  );
  const positive = candidates.filter((e) => e.tabIndex > 0).sort((a, b) => a.tabIndex - b.tabIndex);
  return [...positive, ...candidates.filter((e) => e.tabIndex === 0)];
}

function moveFocus(from: Element, backwards: boolean): string | undefined {
  const order = tabOrder(from.ownerDocument);
  if (!order.length) return undefined;
  const index = order.indexOf(from as HTMLElement);
  const next =
    index < 0
      ? order[backwards ? order.length - 1 : 0]!
      : order[(index + (backwards ? -1 : 1) + order.length) % order.length]!;
  next.focus();
  return `focus moved to ${describeElement(next)}`;
}

function stepSelect(select: HTMLSelectElement, step: number): string | undefined {
  const options = [...select.options];
  for (let i = select.selectedIndex + step; i >= 0 && i < options.length; i += step) {
    if (options[i]!.disabled) continue;
    select.selectedIndex = i;
    select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    fireChange(select);
    return `selected "${options[i]!.label}"`;
  }
  return undefined;
}

function escapeDefault(document: Document): string | undefined {
  const popovers = [...document.querySelectorAll<HTMLElement>('[popover]')].filter((e) => e.matches(':popover-open'));
  const popover = popovers.at(-1);
  if (popover && popover.getAttribute('popover') !== 'manual') {
    popover.hidePopover();
    return 'closed a popover';
  }
  const dialog = [...document.querySelectorAll('dialog')].filter((d) => d.open && d.matches(':modal')).at(-1);
  if (dialog && dialog.dispatchEvent(new Event('cancel', { cancelable: true }))) {
    dialog.close();
    return 'closed a dialog';
  }
  return undefined;
}

const SCROLL_KEYS: Record<string, (scroller: Element, shift: boolean) => void> = {
  ArrowDown: (s) => scrollByAmount(s, 0, 40),
  ArrowUp: (s) => scrollByAmount(s, 0, -40),
  ArrowRight: (s) => scrollByAmount(s, 40, 0),
  ArrowLeft: (s) => scrollByAmount(s, -40, 0),
  PageDown: (s) => scrollByAmount(s, 0, s.clientHeight * 0.875),
  PageUp: (s) => scrollByAmount(s, 0, -s.clientHeight * 0.875),
  ' ': (s, shift) => scrollByAmount(s, 0, (shift ? -1 : 1) * s.clientHeight * 0.875),
  Home: (s) => scrollToEdge(s, 'top'),
  End: (s) => scrollToEdge(s, 'bottom'),
};

/** The browser's default for a key the page did not cancel; returns what it did, if worth saying. */
function keyDefault(target: Element, press: KeyPress): string | undefined {
  const { key } = press.definition;
  const { ctrlKey, metaKey, shiftKey } = press.modifiers;
  const command = ctrlKey || metaKey;
  const editable = isEditable(target);
  if (editable && insertsText(press)) {
    insertText(target, press.definition.text!);
    return undefined;
  }
  if (command && editable) {
    const letter = key.toLowerCase();
    if (letter === 'a') return (selectAllIn(target), 'selected all text');
    if (letter === 'z' || letter === 'y') {
      target.ownerDocument.execCommand(letter === 'y' || shiftKey ? 'redo' : 'undo');
      return undefined;
    }
  }
  if (command) return undefined;
  switch (key) {
    case 'Enter':
      if (target instanceof HTMLTextAreaElement || fieldKind(target) === 'editable')
        return (insertNewline(target), undefined);
      return enterDefault(target);
    case 'Tab':
      return moveFocus(target, shiftKey);
    case 'Backspace':
    case 'Delete':
      if (editable) deleteText(target, key === 'Delete');
      return undefined;
    case 'Escape':
      return escapeDefault(target.ownerDocument);
  }
  if (target instanceof HTMLSelectElement && (key === 'ArrowDown' || key === 'ArrowUp')) {
    return stepSelect(target, key === 'ArrowDown' ? 1 : -1);
  }
  const stepped = stepByKey(target, key);
  if (stepped) return stepped;
  if (editable) {
    if (isTextControl(target) && ['Home', 'End', 'ArrowLeft', 'ArrowRight'].includes(key)) moveCaret(target, key);
    return undefined;
  }
  if (key === ' ' && spaceActivates(target)) return undefined; // clicked on key release
  const scroll = SCROLL_KEYS[key];
  if (scroll) {
    scroll(scrollerFor(target), shiftKey);
    return 'scrolled';
  }
  return undefined;
}

function moveCaret(control: HTMLInputElement | HTMLTextAreaElement, key: string): void {
  try {
    const at = control.selectionStart ?? 0;
    const position =
      key === 'Home' ? 0 : key === 'End' ? control.value.length : key === 'ArrowLeft' ? Math.max(0, at - 1) : at + 1;
    control.setSelectionRange(position, position);
  } catch {
    // no selection API for this input type
  }
}

export interface Pressed {
  /** What the key did, when the browser's default did something worth saying. */
  effect?: string;
  /** The page cancelled the key: its own handler decided what happened. */
  handledByPage: boolean;
}

export function pressKey(target: Element, press: KeyPress): Pressed {
  const { definition, modifiers } = press;
  let handledByPage = !dispatchKey(target, 'keydown', definition, modifiers);
  let effect: string | undefined;
  if (!handledByPage && sendsKeypress(definition, modifiers)) {
    handledByPage = !dispatchKey(target, 'keypress', definition, modifiers);
  }
  if (!handledByPage) effect = keyDefault(target, press);
  // Tab moved focus: the release goes where focus is now, as a real key's would.
  const focused = target.ownerDocument.activeElement;
  const moved = definition.key === 'Tab' && effect !== undefined && focused;
  const releaseTarget = moved ? focused : target.isConnected ? target : (focused ?? target.ownerDocument.body);
  const released = dispatchKey(releaseTarget, 'keyup', definition, modifiers);
  if (!handledByPage && released && definition.key === ' ' && spaceActivates(target)) {
    (target as HTMLElement).click();
    effect = 'activated it';
  }
  return { effect, handledByPage };
}
