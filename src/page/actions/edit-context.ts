/**
 * Editing an element that takes its text through an `EditContext` (Chromium's API for editors
 * that draw their own text: current Monaco by default). The browser's editing commands do not
 * reach such an element; text input does, as the browser delivers it: a cancelable `beforeinput`
 * on the element, then the EditContext's text and selection updated (`updateText`,
 * `updateSelection`) and a `textupdate` event, which the editor applies to its own model. A new
 * line is only a `beforeinput` (`insertParagraph`): an EditContext leaves it to the editor, as
 * the browser does. Composition (IME) is not simulated.
 */

export interface EditContextLike extends EventTarget {
  readonly text: string;
  readonly selectionStart: number;
  readonly selectionEnd: number;
  updateText(start: number, end: number, text: string): void;
  updateSelection(start: number, end: number): void;
}

type TextUpdateEventCtor = new (
  type: string,
  init: {
    updateRangeStart: number;
    updateRangeEnd: number;
    text: string;
    selectionStart: number;
    selectionEnd: number;
  },
) => Event;

export function editContextOf(element: Element): EditContextLike | undefined {
  return (element as { editContext?: EditContextLike | null }).editContext ?? undefined;
}

function beforeInput(element: Element, inputType: string, data: string | null): boolean {
  return element.dispatchEvent(
    new InputEvent('beforeinput', { inputType, data, bubbles: true, cancelable: true, composed: true }),
  );
}

/** Replaces `start`–`end` of the context's text with `text`, caret after it, as text input does. */
function update(element: Element, context: EditContextLike, start: number, end: number, text: string): void {
  const caret = start + text.length;
  context.updateText(start, end, text);
  context.updateSelection(caret, caret);
  const TextUpdate = (element.ownerDocument.defaultView as unknown as { TextUpdateEvent?: TextUpdateEventCtor })
    .TextUpdateEvent;
  if (!TextUpdate) return;
  context.dispatchEvent(
    new TextUpdate('textupdate', {
      updateRangeStart: start,
      updateRangeEnd: end,
      text,
      selectionStart: caret,
      selectionEnd: caret,
    }),
  );
}

const ordered = (context: EditContextLike) => {
  const { selectionStart: a, selectionEnd: b } = context;
  return a <= b ? { start: a, end: b } : { start: b, end: a };
};

export function insertThroughContext(element: Element, context: EditContextLike, text: string): void {
  if (!beforeInput(element, 'insertText', text)) return;
  const { start, end } = ordered(context);
  update(element, context, start, end, text);
}

export function deleteThroughContext(element: Element, context: EditContextLike, forward: boolean): void {
  if (!beforeInput(element, forward ? 'deleteContentForward' : 'deleteContentBackward', null)) return;
  let { start, end } = ordered(context);
  if (start === end) {
    if (forward) end = Math.min(context.text.length, end + 1);
    else start = Math.max(0, start - 1);
  }
  if (start !== end) update(element, context, start, end, '');
}

export function newlineThroughContext(element: Element): void {
  beforeInput(element, 'insertParagraph', null);
}

/** Select-all where the page did not take the key itself: the whole text of the context. */
export function selectAllInContext(context: EditContextLike): void {
  context.updateSelection(0, context.text.length);
}

/**
 * What a person sees of an EditContext editor: its element, or — when that element is drawn at
 * no size, as Monaco's is — the nearest ancestor with a box (the editor surface they click).
 */
export function shownEditor(element: Element): Element {
  if (!editContextOf(element)) return element;
  for (let node: Element | null = element; node; node = node.parentElement) {
    const box = node.getBoundingClientRect();
    if (box.width > 1 && box.height > 1) return node;
  }
  return element;
}
