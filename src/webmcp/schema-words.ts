/**
 * What a page schema holds that goes back to the page as it is: property names, enum and const
 * values, patterns. They cannot be cleaned without changing what the page receives, so each is
 * accepted only when cleaning would not change it, and otherwise the tool is left out, saying why.
 */
import { cleanPageText } from './page-text';
import { patternVerdict } from './page-patterns';

const MAX_VALUE_TEXT = 200;
const MAX_PATTERN = 500;

/** Why a schema cannot be offered; thrown while walking it, caught where the walk began. */
export class SchemaProblem extends Error {}

export const fail = (problem: string): never => {
  throw new SchemaProblem(problem);
};

/** The plain property names most MCP clients accept. */
const PROPERTY_NAME = /^[A-Za-z0-9_.-]{1,64}$/;

/** Page text that goes back to the page as it is, so it is accepted only when cleaning would not change it. */
const clean = (text: string, max: number) => cleanPageText(text, max) === text;

/** An enum or const value: a plain JSON value, its text as clean as the page wrote it. */
export function plainValue(value: unknown): unknown {
  if (value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value)))
    return value;
  if (typeof value === 'string' && clean(value, MAX_VALUE_TEXT)) return value;
  return fail(
    typeof value === 'string'
      ? 'its input schema has an enum or const value that cleaning would change (control, format or bidi characters, a wrapper tag, or too long)'
      : 'its input schema has an enum or const value that is not a plain string, number, boolean or null',
  );
}

/** A property name (in `properties` or `required`) must be a plain name. */
export function plainName(key: string): void {
  if (!PROPERTY_NAME.test(key)) {
    fail(`its input schema has a property name that is not a plain name (${cleanPageText(key, 40)})`);
  }
}

/** A page pattern (in `pattern` or as a `patternProperties` name), shown to the agent as it is. */
export function pageRegex(pattern: unknown): string {
  if (typeof pattern !== 'string' || !clean(pattern, MAX_PATTERN)) {
    return fail('its input schema has a pattern that cleaning would change, or one too long');
  }
  if (patternVerdict(pattern) === 'invalid')
    return fail('its input schema has a pattern that is not a valid regular expression');
  return pattern;
}
