/**
 * The value formats of inputs whose value a picker sets whole (date, time, month, week, local
 * date-time, colour, range): each is read into a number that orders like the value, so a value is
 * checked against the input's `min` and `max` before anything changes. Only the ISO forms HTML
 * defines are taken; a locale's way of writing a date ("31/05/2024") is refused, naming the format.
 */

export interface ValueFormat {
  /** The format as the model should write it. */
  pattern: string;
  example: string;
  /** A number that orders like the value; undefined when the text is not in the format. */
  read(text: string): number | undefined;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysIn(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

/** Day of the week of 1 January (0 = Sunday), for any year from 1. */
function newYearWeekday(year: number): number {
  const y = year - 1;
  return (1 + 5 * (y % 4) + 4 * (y % 100) + 6 * (y % 400)) % 7;
}

/** ISO 8601 years have 53 weeks when they start on a Thursday, or on a Wednesday in a leap year. */
function weeksIn(year: number): number {
  const weekday = newYearWeekday(year);
  return weekday === 4 || (weekday === 3 && isLeapYear(year)) ? 53 : 52;
}

const YEAR = '(\\d{4,})';

function readMonth(text: string): number | undefined {
  const match = new RegExp(`^${YEAR}-(\\d{2})$`).exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  if (year < 1 || month < 1 || month > 12) return undefined;
  return year * 12 + month;
}

function readDate(text: string): number | undefined {
  const match = new RegExp(`^${YEAR}-(\\d{2})-(\\d{2})$`).exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  return (year * 100 + month) * 100 + day;
}

/** Seconds since midnight; seconds and their fraction are optional, as in HTML. */
function readTime(text: string): number | undefined {
  const match = /^(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,3})?)?$/.exec(text);
  if (!match) return undefined;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  const seconds = Number(match[3] ?? 0) + Number(match[4] ?? 0);
  if (hours > 23 || minutes > 59 || seconds >= 60) return undefined;
  return hours * 3600 + minutes * 60 + seconds;
}

function readDateTime(text: string): number | undefined {
  const at = text.indexOf('T');
  if (at < 0) return undefined;
  const date = readDate(text.slice(0, at));
  const time = readTime(text.slice(at + 1));
  if (date === undefined || time === undefined) return undefined;
  return date * 100_000 + time;
}

function readWeek(text: string): number | undefined {
  const match = new RegExp(`^${YEAR}-W(\\d{2})$`).exec(text);
  if (!match) return undefined;
  const year = Number(match[1]);
  const week = Number(match[2]);
  if (year < 1 || week < 1 || week > weeksIn(year)) return undefined;
  return year * 100 + week;
}

function readNumber(text: string): number | undefined {
  // HTML's floating-point syntax: no leading "+", no hexadecimal, no "Infinity".
  if (!/^-?(\d+(\.\d+)?|\.\d+)([eE][-+]?\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

function readColour(text: string): number | undefined {
  return /^#[0-9a-f]{6}$/i.test(text) ? parseInt(text.slice(1), 16) : undefined;
}

export const VALUE_FORMATS: Record<string, ValueFormat> = {
  date: { pattern: 'YYYY-MM-DD', example: '2024-05-31', read: readDate },
  time: { pattern: 'HH:MM or HH:MM:SS', example: '14:30', read: readTime },
  'datetime-local': { pattern: 'YYYY-MM-DDTHH:MM', example: '2024-05-31T14:30', read: readDateTime },
  month: { pattern: 'YYYY-MM', example: '2024-05', read: readMonth },
  week: { pattern: 'YYYY-Www', example: '2024-W22', read: readWeek },
  color: { pattern: '#rrggbb', example: '#1a2b3c', read: readColour },
  range: { pattern: 'a number', example: '5', read: readNumber },
  number: { pattern: 'a number', example: '5', read: readNumber },
};

export interface Bounds {
  min?: string;
  max?: string;
}

/** Why a value does not fit, or undefined when it does. The empty value (clearing) always fits. */
export function valueProblem(type: string, text: string, bounds: Bounds = {}): string | undefined {
  const format = VALUE_FORMATS[type];
  if (!format || text === '') return undefined;
  const value = format.read(text);
  if (value === undefined) return 'not-in-format';
  const min = bounds.min ? format.read(bounds.min) : undefined;
  const max = bounds.max ? format.read(bounds.max) : undefined;
  if ((min !== undefined && value < min) || (max !== undefined && value > max)) return 'out-of-bounds';
  return undefined;
}

/** "between 2024-01-01 and 2024-12-31", "from 2024-01-01 on", "up to 2024-12-31", or ''. */
export function describeBounds(type: string, bounds: Bounds): string {
  const format = VALUE_FORMATS[type];
  const min = bounds.min && format?.read(bounds.min) !== undefined ? bounds.min : undefined;
  const max = bounds.max && format?.read(bounds.max) !== undefined ? bounds.max : undefined;
  if (min && max) return `between ${min} and ${max}`;
  if (min) return `from ${min} on`;
  if (max) return `up to ${max}`;
  return '';
}
