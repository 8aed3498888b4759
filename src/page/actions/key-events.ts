/**
 * Keyboard events as a real key press sends them. `keyCode`, `which` and `charCode` go in through
 * the init dictionary (Chrome honours them there): a property defined on the event object here
 * would live in Tabwright's isolated world only, invisible to the page's own listeners.
 */
import type { KeyDefinition, Modifiers } from './keyboard';

export type KeyEventType = 'keydown' | 'keypress' | 'keyup';

const NO_MODIFIERS: Modifiers = { ctrlKey: false, shiftKey: false, altKey: false, metaKey: false };

/** Dispatches one keyboard event; returns false when the page cancelled it. */
export function dispatchKey(
  target: Element,
  type: KeyEventType,
  definition: KeyDefinition,
  modifiers: Modifiers = NO_MODIFIERS,
  repeat = false,
): boolean {
  // Enter's keypress carries a carriage return whatever text it inserts.
  const text = definition.key === 'Enter' ? '\r' : (definition.text ?? definition.key);
  const charCode = type === 'keypress' ? text.charCodeAt(0) : 0;
  const keyCode = type === 'keypress' ? charCode : definition.keyCode;
  const init: KeyboardEventInit & { keyCode: number; which: number; charCode: number } = {
    key: definition.key,
    code: definition.code,
    location: definition.location ?? 0,
    repeat,
    bubbles: true,
    cancelable: true,
    composed: true,
    view: target.ownerDocument.defaultView,
    keyCode,
    which: keyCode,
    charCode,
    ...modifiers,
  };
  return target.dispatchEvent(new KeyboardEvent(type, init));
}

/** Whether this key press would send a `keypress` (printable keys and Enter, without Control/Alt/Meta). */
export function sendsKeypress(definition: KeyDefinition, modifiers: Modifiers): boolean {
  if (modifiers.ctrlKey || modifiers.altKey || modifiers.metaKey) return false;
  return definition.text !== undefined;
}
