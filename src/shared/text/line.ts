/**
 * Text from a page or an agent that goes into a line-oriented format a model parses (snapshot
 * lines, names, titles, a dialog's message): nothing in it may start a line, fake a ref or state,
 * or close a quoted name early, and nothing invisible may change how it reads.
 */
import { hasInvisible, stripInvisible } from './invisible';
import { defuseWrappers } from './wrappers';

/** Line breaks of every kind, and other controls, become one space. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const BREAKS_AND_CONTROLS = /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;

/** Most page text is already clean; one test is cheaper than four replacements. */
const NEEDS_WORK =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\u0000-\u001f\u007f-\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u2066-\u2069\u3000\ufeff"[\]<\uff1c\ufe64\u02c2\u1438\u2329\u3008\u27e8]|\s\s|^\s|\s$/;

/**
 * The text as one line: invisible characters gone, breaks and controls spaces, brackets and quotes
 * swapped for look-alikes, and wrapper tags defused — a line may stand outside any wrapper (an
 * action's own line names the element it acted on).
 */
export function neutraliseText(text: string): string {
  if (!NEEDS_WORK.test(text) && !hasInvisible(text)) return text;
  return defuseWrappers(text)
    .replace(BREAKS_AND_CONTROLS, ' ')
    .trim()
    .replace(/[[\]"]/g, (c) => (c === '[' ? '\u27e6' : c === ']' ? '\u27e7' : '\u201d'));
}

/** Caps text that is shown inline (values, option labels) so one field cannot flood a snapshot. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** Every way text can break a line, as a model reading it would. */
const LINE_BREAKS = /\r\n?|[\n\v\f\u0085\u2028\u2029]/g;

/**
 * Many lines of page text (a page's readable text, its HTML) placed under headers the tool writes
 * (`# text — …`, `# frame …`): every line break becomes a plain `\n` and a line of the page's that
 * starts like a header is escaped (`\#`), so the page cannot add a frame or a cut note of its own.
 */
export function defuseHeaderLines(text: string): string {
  return stripInvisible(text)
    .replace(LINE_BREAKS, '\n')
    .replace(/^([^\S\n]*)#/gm, '$1\\#');
}
