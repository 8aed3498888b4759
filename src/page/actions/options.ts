/**
 * Choosing options in a native `<select>` by value or by the label the user sees, and setting
 * checkboxes from a yes/no value. Lookups happen before anything changes, so a wrong value is
 * refused with the list of valid ones and the field is left as it was.
 */
import { focusElement } from './focus';
import { PageError } from '../env';
import { clip, neutraliseText } from '../../shared/text/line';
import { describeElement } from './describe';
import { fireChange } from './editing';
import { valueProblem, type Bounds } from './input-values';

const LISTED_OPTIONS = 25;

function labelOf(option: HTMLOptionElement): string {
  return option.label.replace(/\s+/g, ' ').trim();
}

function isDisabled(option: HTMLOptionElement): boolean {
  return option.disabled || (option.parentElement instanceof HTMLOptGroupElement && option.parentElement.disabled);
}

function listOptions(select: HTMLSelectElement): string {
  const all = [...select.options];
  const shown = all
    .slice(0, LISTED_OPTIONS)
    .map((o) => `"${clip(neutraliseText(labelOf(o)), 60)}" (value "${clip(neutraliseText(o.value), 60)}")`);
  const more = all.length > LISTED_OPTIONS ? `, and ${all.length - LISTED_OPTIONS} more` : '';
  return shown.join(', ') + more;
}

function findOption(select: HTMLSelectElement, wanted: string, by: 'value' | 'label'): HTMLOptionElement | undefined {
  const options = [...select.options];
  if (by === 'value') return options.find((o) => o.value === wanted);
  const text = wanted.replace(/\s+/g, ' ').trim();
  return (
    options.find((o) => labelOf(o) === text) ??
    options.find((o) => labelOf(o).toLowerCase() === text.toLowerCase()) ??
    options.find((o) => o.value === wanted)
  );
}

/** The options named by values or labels; refuses unknown and disabled ones, naming the valid ones. */
export function chooseOptions(
  select: HTMLSelectElement,
  wanted: readonly string[],
  by: 'value' | 'label',
): HTMLOptionElement[] {
  if (!wanted.length) throw new PageError('Say which option to select: pass `value` or `label`.', 'bad-arguments');
  if (wanted.length > 1 && !select.multiple) {
    throw new PageError(`${describeElement(select)} takes one option; ${wanted.length} were given.`, 'bad-arguments');
  }
  return wanted.map((item) => {
    const option = findOption(select, item, by);
    if (!option) {
      throw new PageError(
        `${describeElement(select)} has no option with the ${by} "${clip(neutraliseText(item), 80)}". ` +
          `Its options: ${listOptions(select)}. Nothing was changed.`,
        'no-option',
      );
    }
    if (isDisabled(option)) {
      throw new PageError(
        `The option "${labelOf(option)}" of ${describeElement(select)} is disabled.`,
        'disabled-option',
      );
    }
    return option;
  });
}

/** Selects exactly `chosen` and tells the page, as picking from the list would. */
export function applyOptions(select: HTMLSelectElement, chosen: readonly HTMLOptionElement[]): string {
  focusElement(select);
  const changed = [...select.options].some((o) => o.selected !== chosen.includes(o));
  for (const option of select.options) option.selected = chosen.includes(option);
  if (changed) {
    select.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
    fireChange(select);
  }
  return chosen.map((o) => `"${clip(neutraliseText(labelOf(o)), 60)}"`).join(', ');
}

const YES = new Set(['true', 'yes', 'on', 'checked', '1', 'x']);
const NO = new Set(['false', 'no', 'off', 'unchecked', '0', '']);

/** A checkbox or radio value: true/false, yes/no, on/off, checked/unchecked, 1/0. */
export function parseChecked(value: string | boolean, field: HTMLInputElement): boolean {
  if (typeof value === 'boolean') return value;
  const word = value.trim().toLowerCase();
  if (YES.has(word)) return true;
  if (NO.has(word)) return false;
  throw new PageError(
    `${describeElement(field)} is a ${field.type}: give true or false (not "${clip(neutraliseText(value), 40)}").`,
    'bad-value',
  );
}

/** Sets a checkbox or radio by clicking it when it is not already as wanted, so handlers run. */
export function setChecked(field: HTMLInputElement, checked: boolean): void {
  if (field.checked === checked) return;
  if (!checked && field.type === 'radio') {
    throw new PageError(
      `${describeElement(field)} is a radio button: choose another option in its group instead.`,
      'bad-value',
    );
  }
  field.click();
}

/** Whether an input of this type would keep `value` in its format and within its `min` and `max`. */
export function acceptsValue(field: HTMLInputElement, value: string): boolean {
  return valueProblem(field.type, value, inputBounds(field)) === undefined;
}

/** The bounds a value must keep to; a range without them runs from 0 to 100. */
export function inputBounds(field: HTMLInputElement): Bounds {
  if (field.type === 'range') return { min: field.min || '0', max: field.max || '100' };
  return { min: field.min || undefined, max: field.max || undefined };
}
