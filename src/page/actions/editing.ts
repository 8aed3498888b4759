/**
 * Text editing the way the browser's own editor does it. `execCommand('insertText')` goes through
 * the editing pipeline, so the page gets real `beforeinput` and `input` events, undo works, and
 * rich-text editors see what they expect. Where the command is unavailable (some input types, a
 * document without focus), the value is set through the native setter and the events are sent by
 * hand, so frameworks that track the value (React) still notice.
 */
import {
  deleteThroughContext,
  editContextOf,
  insertThroughContext,
  newlineThroughContext,
  selectAllInContext,
} from './edit-context';
import { setNativeValue } from './fields';

export type TextControl = HTMLInputElement | HTMLTextAreaElement;

export function isTextControl(element: Element): element is TextControl {
  return element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;
}

function execute(document: Document, command: string, value?: string): boolean {
  try {
    return document.execCommand(command, false, value);
  } catch {
    return false;
  }
}

function selection(control: TextControl): { start: number; end: number } {
  try {
    const start = control.selectionStart;
    const end = control.selectionEnd;
    if (start !== null && end !== null) return { start, end };
  } catch {
    // email and number inputs have no selection API
  }
  return { start: control.value.length, end: control.value.length };
}

function fireInput(element: Element, inputType: string, data: string | null): void {
  element.dispatchEvent(new InputEvent('input', { inputType, data, bubbles: true, composed: true }));
}

function fireBeforeInput(element: Element, inputType: string, data: string | null): boolean {
  return element.dispatchEvent(
    new InputEvent('beforeinput', { inputType, data, bubbles: true, cancelable: true, composed: true }),
  );
}

function isFocused(element: Element): boolean {
  const root = element.getRootNode() as Document | ShadowRoot;
  return root.activeElement === element || (element instanceof HTMLElement && element.isContentEditable);
}

/** Inserts text at the caret (replacing the selection), as typing does. */
export function insertText(element: Element, text: string): void {
  const context = editContextOf(element);
  if (context) return insertThroughContext(element, context, text);
  const document = element.ownerDocument;
  if (isFocused(element) && execute(document, 'insertText', text)) return;
  if (!isTextControl(element)) {
    if (!fireBeforeInput(element, 'insertText', text)) return;
    const range = document.getSelection()?.rangeCount ? document.getSelection()!.getRangeAt(0) : undefined;
    if (range && element.contains(range.startContainer)) {
      range.deleteContents();
      const node = document.createTextNode(text);
      range.insertNode(node);
      range.setStartAfter(node);
      range.collapse(true);
    } else {
      element.append(text);
    }
    fireInput(element, 'insertText', text);
    return;
  }
  if (!fireBeforeInput(element, 'insertText', text)) return;
  const { start, end } = selection(element);
  const value = element.value;
  setNativeValue(element, value.slice(0, start) + text + value.slice(end));
  try {
    element.setSelectionRange(start + text.length, start + text.length);
  } catch {
    // no selection API for this input type
  }
  fireInput(element, 'insertText', text);
}

/** Deletes the selection, or one character before (or after) the caret. */
export function deleteText(element: Element, forward = false): void {
  const context = editContextOf(element);
  if (context) return deleteThroughContext(element, context, forward);
  const document = element.ownerDocument;
  if (isFocused(element) && execute(document, forward ? 'forwardDelete' : 'delete')) return;
  if (!isTextControl(element)) return;
  const inputType = forward ? 'deleteContentForward' : 'deleteContentBackward';
  if (!fireBeforeInput(element, inputType, null)) return;
  let { start, end } = selection(element);
  if (start === end) {
    if (forward) end = Math.min(element.value.length, end + 1);
    else start = Math.max(0, start - 1);
  }
  setNativeValue(element, element.value.slice(0, start) + element.value.slice(end));
  try {
    element.setSelectionRange(start, start);
  } catch {
    // no selection API for this input type
  }
  fireInput(element, inputType, null);
}

export function selectAllIn(element: Element): void {
  const context = editContextOf(element);
  if (context) return selectAllInContext(context);
  if (isTextControl(element)) {
    element.select();
    return;
  }
  const selection = element.ownerDocument.getSelection();
  if (!selection) return;
  const range = element.ownerDocument.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

export function caretToEnd(element: Element): void {
  // An EditContext editor keeps its own caret (where the person's click put it); text goes there.
  if (editContextOf(element)) return;
  if (isTextControl(element)) {
    try {
      element.setSelectionRange(element.value.length, element.value.length);
    } catch {
      // no selection API: insertion falls back to appending
    }
    return;
  }
  const selection = element.ownerDocument.getSelection();
  if (!selection) return;
  const range = element.ownerDocument.createRange();
  range.selectNodeContents(element);
  range.collapse(false);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** Empties a field the way select-all and Delete would. */
export function clearField(element: Element): void {
  const context = editContextOf(element);
  const empty = isTextControl(element)
    ? element.value === ''
    : context
      ? context.text === ''
      : (element.textContent ?? '') === '';
  if (empty) return;
  selectAllIn(element);
  deleteText(element);
  // Some editors refuse the delete command on a full selection; fall back to the native setter.
  if (isTextControl(element) && element.value !== '') {
    setNativeValue(element, '');
    fireInput(element, 'deleteContentBackward', null);
  }
}

export function fireChange(element: Element): void {
  element.dispatchEvent(new Event('change', { bubbles: true }));
}

/** A new line where the caret is: a line break in a textarea, a paragraph in rich text. */
export function insertNewline(element: Element): void {
  if (editContextOf(element)) return newlineThroughContext(element);
  const document = element.ownerDocument;
  if (element instanceof HTMLTextAreaElement) return insertText(element, '\n');
  if (isFocused(element) && execute(document, 'insertParagraph')) return;
  insertText(element, '\n');
}
