/**
 * Arrow, Page and Home/End keys on sliders and number fields. Chromium steps these inputs from
 * its own key handling, which synthetic key events never reach, so the step is worked out here the
 * way Chromium does it: a range moves by its step on the arrows, by a tenth of its span (at least
 * one step) on PageUp/PageDown and to its ends on Home/End; a number field steps on ArrowUp and
 * ArrowDown only (its other keys move the caret, as in any text field). Values stay on the step
 * grid and within min and max.
 */
import { fireChange } from './editing';
import { setNativeValue } from './fields';

export interface StepRange {
  min?: number;
  max?: number;
  /** The allowed step; undefined for step="any". */
  step?: number;
  /** Where the step grid starts: min, else the value attribute, else 0. */
  base: number;
}

export type StepKey = 'up' | 'down' | 'page-up' | 'page-down' | 'home' | 'end';

/** Rounds away the binary noise of adding decimal steps (0.1 + 0.2). */
function tidy(value: number, range: StepRange, from: number): number {
  const decimals = (n: number | undefined) =>
    n === undefined || Number.isNaN(n) ? 0 : (String(n).split('.')[1]?.length ?? 0);
  const places = Math.min(
    12,
    Math.max(decimals(range.step), decimals(range.base), decimals(range.min), decimals(range.max), decimals(from)),
  );
  return Number(value.toFixed(places));
}

/** The nearest value on the step grid within bounds at or below (`down`) or above `value`. */
function onGrid(value: number, range: StepRange, direction: 'down' | 'up'): number {
  // step="any" has no grid: Chromium then steps by the default step of 1 from wherever it is.
  if (range.step === undefined) return value;
  const step = range.step;
  const steps = (value - range.base) / step;
  const whole = Math.abs(steps - Math.round(steps)) < 1e-9 ? Math.round(steps) : steps;
  return range.base + (direction === 'down' ? Math.floor(whole) : Math.ceil(whole)) * step;
}

function clamp(value: number, range: StepRange): number {
  if (range.max !== undefined && value > range.max) return onGrid(range.max, range, 'down');
  if (range.min !== undefined && value < range.min) return onGrid(range.min, range, 'up');
  return value;
}

/**
 * The value after one key, or undefined when the key changes nothing (already at the end it moves
 * towards). `current` is NaN for an empty number field, which steps from 0 as Chromium's does.
 */
export function steppedValue(current: number, key: StepKey, range: StepRange): number | undefined {
  const step = range.step ?? 1;
  let next: number;
  if (key === 'home' || key === 'end') {
    const end = key === 'home' ? range.min : range.max;
    if (end === undefined) return undefined;
    next = clamp(onGrid(end, range, key === 'home' ? 'up' : 'down'), range);
  } else {
    const up = key === 'up' || key === 'page-up';
    let value = current;
    if (Number.isNaN(value)) {
      // An empty field starts from 0, moved so that the step lands inside the bounds.
      const diff = up ? step : -step;
      value = 0;
      if (range.min !== undefined && value < range.min - diff) value = range.min - diff;
      if (range.max !== undefined && value > range.max - diff) value = range.max - diff;
    }
    // Outside the bounds, a step towards them lands on the end it moves towards.
    if (up && range.min !== undefined && value < range.min) return tidy(clamp(range.min, range), range, current);
    if (!up && range.max !== undefined && value > range.max) return tidy(clamp(range.max, range), range, current);
    if (up && range.max !== undefined && value >= range.max) return undefined;
    if (!up && range.min !== undefined && value <= range.min) return undefined;
    let amount = step;
    if (key === 'page-up' || key === 'page-down') {
      const span = range.min !== undefined && range.max !== undefined ? range.max - range.min : 0;
      amount = Math.max(span / 10, step);
    }
    // Off the grid, the first step only snaps to it in the direction of travel.
    const snapped = onGrid(value, range, up ? 'up' : 'down');
    const moved = snapped !== value && amount === step ? snapped : value + (up ? amount : -amount);
    next = clamp(onGrid(moved, range, up ? 'down' : 'up'), range);
  }
  next = tidy(next, range, current);
  return next === current ? undefined : next;
}

const RANGE_KEYS: Record<string, StepKey> = {
  ArrowUp: 'up',
  ArrowRight: 'up',
  ArrowDown: 'down',
  ArrowLeft: 'down',
  PageUp: 'page-up',
  PageDown: 'page-down',
  Home: 'home',
  End: 'end',
};
const NUMBER_KEYS: Record<string, StepKey> = { ArrowUp: 'up', ArrowDown: 'down' };

function number(text: string): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** Reads an input's step range; a range without bounds runs from 0 to 100. */
export function stepRangeOf(input: HTMLInputElement): StepRange {
  const isRange = input.type === 'range';
  const min = number(input.min) ?? (isRange ? 0 : undefined);
  const max = number(input.max) ?? (isRange ? 100 : undefined);
  const stepText = input.getAttribute('step');
  const parsed = stepText === null ? undefined : number(stepText);
  const step = stepText?.trim().toLowerCase() === 'any' ? undefined : parsed && parsed > 0 ? parsed : 1;
  const base = min ?? number(input.getAttribute('value') ?? '') ?? 0;
  // A range's maximum is below its minimum: it is pinned at the minimum.
  return { min, max: isRange && min !== undefined && max !== undefined && max < min ? min : max, step, base };
}

/**
 * Applies a stepping key to a range or number input, with input and change events as the
 * browser's own step sends; returns what happened, or undefined when the key is not a step there.
 */
export function stepByKey(target: Element, key: string): string | undefined {
  if (!(target instanceof HTMLInputElement) || target.disabled || target.readOnly) return undefined;
  const keys = target.type === 'range' ? RANGE_KEYS : target.type === 'number' ? NUMBER_KEYS : undefined;
  let stepKey = keys?.[key];
  if (!stepKey) return undefined;
  // In right-to-left text a horizontal slider grows to the left.
  const rtl = target.type === 'range' && target.ownerDocument.defaultView?.getComputedStyle(target).direction === 'rtl';
  if (rtl && (key === 'ArrowLeft' || key === 'ArrowRight')) stepKey = key === 'ArrowLeft' ? 'up' : 'down';
  const range = stepRangeOf(target);
  const current = target.value === '' ? NaN : Number(target.value);
  const next = steppedValue(current, stepKey, range);
  if (next === undefined) return `the value stays ${target.value || 'empty'}`;
  setNativeValue(target, String(next));
  target.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  fireChange(target);
  return `the value is now ${target.value}`;
}
