/**
 * When a snapshot line is the one a target names (`{ role: 'button', name: 'Save' }`): its role as
 * printed, and its name exactly as printed. The name asked for goes through the same neutralising
 * and the same cap as the page's own names, so a name copied from a snapshot and the text it came
 * from both match. The page decides with it which lines of a walk get a ref, and the panel which
 * lines are candidates, so the two cannot disagree.
 */
import { z } from 'zod';
import { clip, neutraliseText } from '../shared/text/line';
import { NAME_MAX, nameOfLine, refOfLine, roleOfLine } from './snapshot-line';

/** An element as a snapshot prints it; `role: 'text'` names a run of text. */
export const TargetQuery = z.object({
  role: z.string().min(1).max(100).optional(),
  name: z.string().min(1).max(10_000),
});
export type TargetQuery = z.infer<typeof TargetQuery>;

export type TargetMatch = (role: string, name: string) => boolean;

/** Whether a printed role and name are what `query` asks for. */
export function targetMatch(query: TargetQuery): TargetMatch {
  const role = query.role?.trim().toLowerCase();
  const name = neutraliseText(query.name);
  const cut = clip(name, NAME_MAX);
  return (lineRole, lineName) =>
    (role === undefined || role === lineRole) && lineName !== '' && (lineName === name || lineName === cut);
}

/** Whether a printed role and name are what any of `queries` asks for. */
export function anyTargetMatch(queries: readonly TargetQuery[]): TargetMatch {
  const matches = queries.map(targetMatch);
  return (role, name) => matches.some((match) => match(role, name));
}

/** Whether `line` is one `match` names (a comment line never is). */
export function lineMatches(line: string, match: TargetMatch): boolean {
  return match(roleOfLine(line), nameOfLine(line));
}

/** The line's ref, when `line` is one `match` names and has one. */
export function matchingRef(line: string, match: TargetMatch): string | undefined {
  return lineMatches(line, match) ? refOfLine(line) : undefined;
}
