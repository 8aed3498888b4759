import { describe, expect, it } from 'vitest';
import { describeBounds, valueProblem, VALUE_FORMATS } from './input-values';

describe('valueProblem', () => {
  it('takes the ISO forms of dates, times, months, weeks and local date-times', () => {
    for (const [type, value] of [
      ['date', '2024-05-31'],
      ['date', '2024-02-29'],
      ['date', '12345-01-01'],
      ['time', '00:00'],
      ['time', '23:59:59'],
      ['time', '07:45:30.250'],
      ['datetime-local', '2024-05-31T14:30'],
      ['datetime-local', '2024-05-31T14:30:05'],
      ['month', '2024-12'],
      ['week', '2024-W01'],
      ['week', '2020-W53'],
      ['color', '#1A2b3c'],
      ['range', '-2.5'],
      ['range', '1e3'],
    ]) {
      expect(valueProblem(type!, value!), `${type} ${value}`).toBeUndefined();
    }
  });

  it('refuses other spellings and impossible values as not in the format', () => {
    for (const [type, value] of [
      ['date', '31/05/2024'],
      ['date', '2024-5-31'],
      ['date', '2023-02-29'],
      ['date', '2024-04-31'],
      ['date', '0000-01-01'],
      ['date', 'tomorrow'],
      ['time', '5:30 PM'],
      ['time', '24:00'],
      ['time', '12:60'],
      ['time', '12:30:60'],
      ['datetime-local', '2024-05-31 14:30'],
      ['datetime-local', '2024-05-31'],
      ['month', '2024-13'],
      ['month', '2024-00'],
      ['week', '2023-W53'],
      ['week', '2024-W00'],
      ['week', '2024-22'],
      ['color', 'red'],
      ['color', '#abc'],
      ['range', 'loud'],
      ['range', '+3'],
      ['range', 'Infinity'],
    ]) {
      expect(valueProblem(type!, value!), `${type} ${value}`).toBe('not-in-format');
    }
  });

  it('checks min and max in the order of the values, whatever their spelling', () => {
    const bounds = { min: '2024-01-01', max: '2024-12-31' };
    expect(valueProblem('date', '2024-01-01', bounds)).toBeUndefined();
    expect(valueProblem('date', '2024-12-31', bounds)).toBeUndefined();
    expect(valueProblem('date', '2023-12-31', bounds)).toBe('out-of-bounds');
    expect(valueProblem('date', '2025-01-01', bounds)).toBe('out-of-bounds');
    expect(valueProblem('time', '06:00:01', { min: '06:00', max: '22:00' })).toBeUndefined();
    expect(valueProblem('time', '22:00:01', { min: '06:00', max: '22:00' })).toBe('out-of-bounds');
    expect(valueProblem('datetime-local', '2024-05-31T09:00', { min: '2024-05-31T08:30' })).toBeUndefined();
    expect(valueProblem('datetime-local', '2024-05-30T23:59', { min: '2024-05-31T08:30' })).toBe('out-of-bounds');
    expect(valueProblem('week', '2025-W01', { max: '2024-W52' })).toBe('out-of-bounds');
    expect(valueProblem('month', '2024-09', { min: '2024-10' })).toBe('out-of-bounds');
    expect(valueProblem('range', '10.5', { min: '0', max: '10' })).toBe('out-of-bounds');
    // A bound the page wrote wrongly is no bound, as in the browser.
    expect(valueProblem('date', '1999-01-01', { min: 'soon' })).toBeUndefined();
  });

  it('lets the empty value through (clearing the field) and knows nothing of other types', () => {
    expect(valueProblem('date', '', { min: '2024-01-01' })).toBeUndefined();
    expect(valueProblem('text', 'anything')).toBeUndefined();
  });
});

describe('describeBounds', () => {
  it('names the bounds an input sets, leaving out ones that do not parse', () => {
    expect(describeBounds('date', { min: '2024-01-01', max: '2024-12-31' })).toBe('between 2024-01-01 and 2024-12-31');
    expect(describeBounds('time', { min: '06:00' })).toBe('from 06:00 on');
    expect(describeBounds('month', { max: '2024-10' })).toBe('up to 2024-10');
    expect(describeBounds('date', { min: 'soon' })).toBe('');
  });

  it('gives an example of each format that the format itself takes', () => {
    for (const [type, format] of Object.entries(VALUE_FORMATS)) {
      expect(format.read(format.example), type).not.toBeUndefined();
    }
  });
});
