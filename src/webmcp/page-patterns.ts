/**
 * The page's regular expressions (`pattern`, `patternProperties`, and through them
 * `propertyNames`) and the panel's thread. The page chooses the pattern and the agent the text it
 * is matched against; a backtracking pattern such as `^(a+)+$` would freeze the panel, its kill
 * switch included, for as long as it likes. So a pattern is run only inside the subset recipes use
 * (connectors/recipe/safe-pattern.ts), whose matching stays small on values of at most
 * PATTERN_MAX_INPUT characters, and only on such values; any other pattern, and any longer value,
 * is left to the page to check, as it checks its own input anyway.
 */
import { INVALID_PATTERN, PATTERN_MAX_INPUT, patternProblem } from '../connectors/recipe/safe-pattern';

/** `checked`: Tabwright runs it; `unchecked`: left to the page; `invalid`: not a regular expression. */
export type PatternVerdict = 'checked' | 'unchecked' | 'invalid';

export function patternVerdict(pattern: string): PatternVerdict {
  const problem = patternProblem(pattern);
  if (problem === undefined) return 'checked';
  return problem === INVALID_PATTERN ? 'invalid' : 'unchecked';
}

/**
 * The pattern as zod will run it, or undefined when it is left to the page. It still matches
 * anywhere in the value, as JSON Schema patterns do, and passes at once a value too long to check.
 * `names` learns the page's own pattern for the guarded one, for refusals to quote.
 */
export function checkedPattern(pattern: string, names: Map<string, string>): string | undefined {
  if (patternVerdict(pattern) !== 'checked') return undefined;
  const guarded = `^(?:[\\s\\S]{${PATTERN_MAX_INPUT + 1}}|[\\s\\S]*?(?:${pattern}))`;
  names.set(new RegExp(guarded).toString(), pattern);
  return guarded;
}
