/**
 * Typing into a field: text fields and textareas key by key (keydown, keypress, the edit, keyup),
 * so pages that listen to keys and frameworks that listen to `input` both see it; date, time,
 * colour and range inputs whole, as their pickers would set them; rich-text (contenteditable)
 * through the browser's editor. A `change` follows the edit, as when the field loses focus.
 */
import { focusElement } from './focus';
import { pauseForPerson, PERSON_PAUSE_LIMIT_MS, type PersonClock } from './person-pause';
import { PageError } from '../env';
import { clip, neutraliseText } from '../../shared/text/line';
import { describeElement } from './describe';
import { caretToEnd, clearField, fireChange, insertNewline, insertText, isTextControl } from './editing';
import { fieldKind, setNativeValue } from './fields';
import { describeBounds, valueProblem, VALUE_FORMATS } from './input-values';
import { inputBounds } from './options';
import { dispatchKey } from './key-events';
import { characterKey } from './keyboard';
import { submitFromField } from './submit';
import { nextBeat, yieldToPage } from './timing';

export interface Typed {
  /** What the field should hold if the page took the text as typed (text fields only). */
  expected?: string;
  /** What submitting did, when asked to submit. */
  submitted?: string;
}

/** The field's value after the page had its say, when it differs from what was typed. */
export function valueIfChanged(field: Element, typed: Typed): string | undefined {
  if (typed.expected === undefined || !isTextControl(field)) return undefined;
  return field.value === typed.expected ? undefined : field.value;
}

function refuseKind(field: Element): never {
  const what = describeElement(field);
  switch (fieldKind(field)) {
    case 'select':
      throw new PageError(`${what} is a drop-down: use select_option with its value or label.`, 'wrong-kind');
    case 'checkable':
      throw new PageError(`${what} is a checkbox or radio button: click it instead.`, 'wrong-kind');
    case 'file':
      throw new PageError(`${what} is a file picker: use upload_file on it, with the files.`, 'wrong-kind');
    default:
      throw new PageError(`${what} does not take text. Pick a text field, textarea or editable area.`, 'wrong-kind');
  }
}

/** One character, as a key press: the edit happens only if the page lets the key through. */
function typeCharacter(field: Element, character: string): void {
  const definition = characterKey(character);
  const modifiers = { ctrlKey: false, altKey: false, metaKey: false, shiftKey: !!definition.shifted };
  if (dispatchKey(field, 'keydown', definition, modifiers) && dispatchKey(field, 'keypress', definition, modifiers)) {
    if (definition.key === 'Enter') {
      if (field instanceof HTMLInputElement) submitFromField(field);
      else insertNewline(field);
    } else {
      insertText(field, character);
    }
  }
  dispatchKey(field, 'keyup', definition, modifiers);
}

function setWholeValue(field: HTMLInputElement, text: string): void {
  setWholeValueCheck(field, text);
  setNativeValue(field, text);
  field.dispatchEvent(new InputEvent('input', { bubbles: true, composed: true, inputType: 'insertReplacementText' }));
  fireChange(field);
}

/** Refuses, before anything changes, a value the field could not take. */
export function checkTypable(field: Element, text: string): void {
  const kind = fieldKind(field);
  if (kind !== 'text' && kind !== 'value' && kind !== 'editable') refuseKind(field);
  if (kind === 'value') setWholeValueCheck(field as HTMLInputElement, text);
}

function setWholeValueCheck(field: HTMLInputElement, text: string): void {
  const bounds = inputBounds(field);
  const problem = valueProblem(field.type, text, bounds);
  if (!problem) return;
  const format = VALUE_FORMATS[field.type];
  const within = describeBounds(field.type, bounds);
  const takes = format ? `a value like ${format.example} (${format.pattern})` : 'a value in its own format';
  const why = problem === 'out-of-bounds' ? 'is outside those bounds' : 'is not in that format';
  throw new PageError(
    `${describeElement(field)} takes ${takes}${within ? `, ${within}` : ''}; ` +
      `"${clip(neutraliseText(text), 80)}" ${why}. Nothing was changed.`,
    'bad-value',
  );
}

function gaveUpText(typed: number, total: number): string {
  return (
    `The person started using this tab while the text was being typed and did not leave it alone for ` +
    `${PERSON_PAUSE_LIMIT_MS / 1000} s, so typing stopped after ${typed} of ${total} characters; the rest was not ` +
    'typed. Try again in a while, or ask them in the chat to leave the tab to you.'
  );
}

export async function typeText(
  field: Element,
  text: string,
  options: {
    clear: boolean;
    submit: boolean;
    signal: AbortSignal;
    /** The person's input in the document: typing pauses while they use the tab (person-pause.ts). */
    person?: PersonClock;
  },
): Promise<Typed> {
  checkTypable(field, text);
  const kind = fieldKind(field);
  const html = field as HTMLElement;
  focusElement(html);
  const typed: Typed = {};
  if (kind === 'value') {
    setWholeValue(field as HTMLInputElement, text);
  } else {
    const before = isTextControl(field) ? field.value : (field.textContent ?? '');
    if (options.clear) clearField(field);
    else caretToEnd(field);
    const start = isTextControl(field) ? field.value : (field.textContent ?? '');
    const characters = [...text];
    for (const [index, character] of characters.entries()) {
      if (
        options.person &&
        (await pauseForPerson(options.person, options.signal, () => gaveUpText(index, characters.length)))
      ) {
        // The person may have moved the focus or the caret while the agent waited.
        focusElement(html);
        caretToEnd(field);
      }
      typeCharacter(field, character === '\r' ? '\n' : character);
      // Key presses are separate tasks: frameworks re-render between them.
      await yieldToPage(options.signal);
    }
    const newlinesSubmit = field instanceof HTMLInputElement && /[\r\n]/.test(text);
    if (isTextControl(field) && !newlinesSubmit) typed.expected = start + text.replace(/\r\n?/g, '\n');
    const after = isTextControl(field) ? field.value : (field.textContent ?? '');
    if (isTextControl(field) && after !== before) fireChange(field);
  }
  if (options.submit) {
    await nextBeat(options.signal);
    typed.submitted = pressEnterToSubmit(field);
  }
  return typed;
}

/** Enter in the field, with implicit submission unless the page handles the key. */
function pressEnterToSubmit(field: Element): string {
  const enter = characterKey('\n');
  const modifiers = { ctrlKey: false, altKey: false, metaKey: false, shiftKey: false };
  let outcome: string;
  if (dispatchKey(field, 'keydown', enter, modifiers) && dispatchKey(field, 'keypress', enter, modifiers)) {
    outcome = submitFromField(field) ?? 'pressed Enter (the field is in no form)';
  } else {
    outcome = 'pressed Enter (the page handled it)';
  }
  dispatchKey(field, 'keyup', enter, modifiers);
  return outcome;
}
