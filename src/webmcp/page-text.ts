/**
 * Text a page wrote for the agent to read (tool titles and descriptions, descriptions inside
 * schemas): what hides or reorders it goes, so does any look-alike of the untrusted-content
 * wrapper, and it is capped. Built on the shared functions every untrusted text goes through.
 */
import { stripInvisible } from '../shared/text/invisible';
import { clip } from '../shared/text/line';
import { defuseWrappers } from '../shared/text/wrappers';

/** Control characters and line or paragraph separators become spaces. */
const CONTROLS = /[\p{Cc}\u2028\u2029]/gu;

/** Invisible (format, bidi) characters out, controls spaces, whitespace collapsed, length capped, wrappers defused. */
export function cleanPageText(value: unknown, max: number): string {
  if (typeof value !== 'string') return '';
  const plain = stripInvisible(value).replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
  return defuseWrappers(clip(plain, max));
}
