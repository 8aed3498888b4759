// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { steppedValue, stepRangeOf, type StepKey } from './stepping';

function presses(start: number, keys: StepKey[], range: Parameters<typeof steppedValue>[2]): Array<number | undefined> {
  let value = start;
  return keys.map((key) => {
    const next = steppedValue(value, key, range);
    if (next !== undefined) value = next;
    return next;
  });
}

describe('steppedValue', () => {
  const volume = { min: 0, max: 10, step: 2, base: 0 };

  it('moves a slider by its step and stops at its ends', () => {
    expect(presses(4, ['up', 'up', 'up', 'up', 'down'], volume)).toEqual([6, 8, 10, undefined, 8]);
    expect(presses(2, ['down', 'down'], volume)).toEqual([0, undefined]);
  });

  it('jumps a tenth of the span (at least one step) on PageUp/PageDown and to the ends on Home/End', () => {
    expect(steppedValue(50, 'page-up', { min: 0, max: 100, step: 1, base: 0 })).toBe(60);
    expect(steppedValue(4, 'page-up', volume)).toBe(6);
    expect(steppedValue(95, 'page-up', { min: 0, max: 100, step: 1, base: 0 })).toBe(100);
    expect(steppedValue(4, 'home', volume)).toBe(0);
    expect(steppedValue(4, 'end', { min: 0, max: 9, step: 2, base: 0 })).toBe(8);
    expect(steppedValue(0, 'home', volume)).toBeUndefined();
  });

  it('snaps a value off the step grid onto it in the direction of travel', () => {
    expect(steppedValue(3, 'up', volume)).toBe(4);
    expect(steppedValue(3, 'down', volume)).toBe(2);
    expect(steppedValue(1, 'up', { min: 1, max: 10, step: 3, base: 1 })).toBe(4);
  });

  it('steps an empty number field from 0, or into its bounds when 0 is outside them', () => {
    expect(steppedValue(NaN, 'up', { step: 1, base: 0 })).toBe(1);
    expect(steppedValue(NaN, 'down', { step: 1, base: 0 })).toBe(-1);
    // As Chromium does with real keys: the first step from empty lands on the bound either way.
    expect(steppedValue(NaN, 'up', { min: 5, max: 9, step: 1, base: 5 })).toBe(5);
    expect(steppedValue(NaN, 'down', { min: 5, max: 9, step: 1, base: 5 })).toBe(5);
    expect(steppedValue(NaN, 'up', { max: -3, step: 1, base: 0 })).toBe(-3);
    expect(steppedValue(12, 'down', { min: 5, max: 9, step: 1, base: 5 })).toBe(9);
  });

  it('keeps decimal steps free of binary noise, and steps by 1 without a grid for step="any"', () => {
    expect(presses(0, ['up', 'up', 'up'], { step: 0.1, base: 0 })).toEqual([0.1, 0.2, 0.3]);
    expect(steppedValue(0.25, 'up', { base: 0 })).toBe(1.25);
  });
});

describe('stepRangeOf', () => {
  const input = (markup: string) => {
    document.body.innerHTML = markup;
    return document.body.firstElementChild as HTMLInputElement;
  };

  it('reads min, max, step and the step base as HTML defines them', () => {
    expect(stepRangeOf(input('<input type="range">'))).toEqual({ min: 0, max: 100, step: 1, base: 0 });
    expect(stepRangeOf(input('<input type="number" min="1" max="8" step="0.5">'))).toEqual({
      min: 1,
      max: 8,
      step: 0.5,
      base: 1,
    });
    expect(stepRangeOf(input('<input type="number" value="3" step="any">'))).toEqual({
      min: undefined,
      max: undefined,
      step: undefined,
      base: 3,
    });
    expect(stepRangeOf(input('<input type="number" step="-2">')).step).toBe(1);
  });
});
