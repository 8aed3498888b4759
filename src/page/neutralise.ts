/**
 * Page text goes into a line-oriented format the model parses, so nothing a page writes may start
 * a line, fake a ref or state, or close a quoted name early. Every page-derived string passes here.
 */

/** Line breaks of every kind, and other controls, become one space. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what must go
const BREAKS_AND_CONTROLS = /[\s\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g;
/** Bidi overrides can make a line read differently from what it says. */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f]/g;

/** Most page text is already clean; one test is cheaper than four replacements. */
const NEEDS_WORK =
  // eslint-disable-next-line no-control-regex -- control characters are what it looks for
  /[\u0000-\u001f\u007f-\u00a0\u1680\u2000-\u200f\u2028-\u202f\u205f\u2066-\u2069\u3000\ufeff"[\]]|\s\s|^\s|\s$/;

export function neutraliseText(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  return text
    .replace(BIDI_CONTROLS, '')
    .replace(BREAKS_AND_CONTROLS, ' ')
    .trim()
    .replace(/[[\]"]/g, (c) => (c === '[' ? '\u27e6' : c === ']' ? '\u27e7' : '\u201d'));
}

/** Caps page text that is shown inline (values, option labels) so one field cannot flood a snapshot. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
