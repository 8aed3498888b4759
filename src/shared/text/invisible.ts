/**
 * Characters that take no room on screen but change how text reads: every format character
 * (Unicode category Cf: zero-width spaces and joiners, bidi overrides and isolates, the soft
 * hyphen, word joiners, tag characters) and the blank letters some scripts define. Page and agent
 * text can hide a forged tag, a reversed file name or a whole instruction in them, so text that
 * crosses a boundary either loses them (what a model reads) or shows them (what a person checks).
 *
 * One exception keeps emoji whole: a zero-width joiner between two pictographs (a family, a flag
 * sequence) is kept, since neither neighbour can be part of a tag or a word.
 */

/** Blank letters and marks that are not Cf but print nothing (combining grapheme joiner, Hangul fillers). */
const BLANK_LETTERS = '\\u034f\\u115f\\u1160\\u17b4\\u17b5\\u3164\\uffa0';

const INVISIBLE = new RegExp(
  // eslint-disable-next-line no-misleading-character-class -- the class lists single invisible code points on purpose
  `(?<!\\p{Extended_Pictographic}\\u{fe0f}?[\\u{1f3fb}-\\u{1f3ff}]?)\\u200d|\\u200d(?!\\p{Extended_Pictographic})|(?!\\u200d)[\\p{Cf}${BLANK_LETTERS}]`,
  'gu',
);
/** Cheap test first: most text has none. */
// eslint-disable-next-line no-misleading-character-class -- as above
const ANY_INVISIBLE = new RegExp(`[\\p{Cf}${BLANK_LETTERS}]`, 'u');

export function hasInvisible(text: string): boolean {
  return ANY_INVISIBLE.test(text);
}

/** The text without its invisible characters (emoji joiners kept). */
export function stripInvisible(text: string): string {
  if (!ANY_INVISIBLE.test(text)) return text;
  return text.replace(INVISIBLE, '');
}

/** `U+202E` for one code point. */
export function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The text with each invisible character shown as `⟨U+202E⟩`, for what a person reads and
 * approves (cards, the audit log): `invoice\u202efdp.exe` shows its override instead of reading
 * as a PDF.
 */
export function showInvisible(text: string): string {
  if (!ANY_INVISIBLE.test(text)) return text;
  return text.replace(INVISIBLE, (char) => `\u27e8${codePointName(char)}\u27e9`);
}
