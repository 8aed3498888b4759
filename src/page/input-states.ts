/**
 * Inputs HTML-AAM gives no ARIA role, and what a snapshot line shows of an input beyond its value:
 * the format a date or colour is typed in, the bounds and step of numbers, ranges and dates, and
 * the files a file input holds (its value: names and sizes).
 */
import { VALUE_FORMATS } from './actions/input-values';
import { clip, neutraliseText } from '../shared/text/line';

/**
 * Chromium's accessibility tree gives these inputs roles of its own, with no ARIA equivalent:
 * Date (date), InputTime (time), DateTime (datetime-local, month, week) and ColorWell (color); a
 * file input is a button there. Chromium exposes its date and time fields to platform accessibility
 * APIs as editable text and the colour well as a button, so a snapshot uses those ARIA roles, with
 * the format to type shown beside the date and colour ones. (Password fields are handled apart.)
 */
const UNMAPPED_INPUT_ROLES: Record<string, string> = {
  date: 'textbox',
  time: 'textbox',
  'datetime-local': 'textbox',
  month: 'textbox',
  week: 'textbox',
  color: 'button',
  file: 'button',
};

/** The role of an input type `getRole` leaves without one, or null. */
export function unmappedInputRole(element: Element): string | null {
  if (element.localName !== 'input') return null;
  return UNMAPPED_INPUT_ROLES[(element as HTMLInputElement).type] ?? null;
}

const TYPED_FORMATS = new Set(['date', 'time', 'datetime-local', 'month', 'week', 'color']);
const BOUNDED = new Set(['number', 'range', 'date', 'time', 'datetime-local', 'month', 'week']);
const FILES_SHOWN = 10;

/** A size as file pickers show it: 12 B, 2.0 kB, 340 kB, 1.2 MB. */
export function fileSize(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** "report.pdf (1.2 MB), photo.png (340 kB)": what a file input holds, as its picker lists it. */
export function chosenFiles(input: HTMLInputElement): string | undefined {
  const files = input.files;
  if (!files?.length) return undefined;
  const shown: string[] = [];
  for (let i = 0; i < Math.min(files.length, FILES_SHOWN); i++) {
    const file = files[i]!;
    shown.push(`${clip(neutraliseText(file.name), 80)} (${fileSize(file.size)})`);
  }
  if (files.length > FILES_SHOWN) shown.push(`and ${files.length - FILES_SHOWN} more`);
  return shown.join(', ');
}

function attribute(value: string): string {
  return clip(neutraliseText(value), 40);
}

/** The extra bracketed states of an input's line: files, format, bounds, step. */
export function inputStates(element: Element): string[] {
  if (!(element instanceof HTMLInputElement)) return [];
  const type = element.type;
  const out: string[] = [];
  if (type === 'file') {
    const files = chosenFiles(element);
    if (files) out.push(`[value="${files}"]`);
    if (element.multiple) out.push('[multiple]');
    return out;
  }
  if (TYPED_FORMATS.has(type)) out.push(`[format=${VALUE_FORMATS[type]!.pattern}]`);
  if (!BOUNDED.has(type)) return out;
  // A range always has bounds (0 and 100 unless set), as Chromium reports them.
  const min = element.min || (type === 'range' ? '0' : '');
  const max = element.max || (type === 'range' ? '100' : '');
  if (min) out.push(`[min=${attribute(min)}]`);
  if (max) out.push(`[max=${attribute(max)}]`);
  const step = element.getAttribute('step');
  if (step) out.push(`[step=${attribute(step)}]`);
  return out;
}
