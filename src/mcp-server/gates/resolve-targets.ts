/**
 * Looks up each element the arguments name by role and name (target-args.ts) as the ref it names,
 * before the user is asked and before the tool runs: the page walks every frame the gates allow,
 * giving a ref to each line a target names (printed with one or not), and the lines come back
 * stitched in snapshot order. A target that names no line, or several without `nth`, refuses the
 * call and lists what the page shows. From then on the call acts on that ref alone: it names one
 * element for the life of its document, so a page that re-renders meanwhile makes it stale and the
 * action is refused, never aimed at another element.
 */
import { headOfLine, indentOfLine, isCommentLine, nameOfLine, refMark, roleOfLine } from '../../page/snapshot-line';
import { matchingRef, targetMatch, type TargetQuery } from '../../page/target-match';
import { namedTwice, targetSlots, targetText, withTargetRefs, type TargetSlot } from '../target-args';

/** What the page showed the lookup: its top document's URL and the stitched lines. */
export interface TargetLookup {
  url: string;
  lines: readonly string[];
}

export interface ResolvedTarget {
  slot: TargetSlot;
  ref: string;
}

export type TargetResolution =
  | { ok: true; args: Record<string, unknown>; resolved: ResolvedTarget[] }
  /** `candidates`: lines of the page (untrusted text) that the refusal lists, from `url`'s page. */
  | { ok: false; text: string; candidates?: string; url?: string; slots: TargetSlot[] };

/** More than this many candidates are counted, not listed. */
export const CANDIDATES_SHOWN = 20;

/** How a resolved target reads on the card and in the audit log: what was asked, and the ref it named. */
export const resolvedText = ({ slot, ref }: ResolvedTarget) => `${targetText(slot.target)} → ${ref}`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The nearest line above `index` that holds it and has a name: where a candidate is on the page. */
function placeOf(lines: readonly string[], index: number): string | undefined {
  let indent = indentOfLine(lines[index]!);
  for (let i = index - 1; i >= 0 && indent > 0; i--) {
    const line = lines[i]!;
    if (isCommentLine(line) || indentOfLine(line) >= indent) continue;
    indent = indentOfLine(line);
    if (nameOfLine(line) && roleOfLine(line) !== 'text') return headOfLine(line).slice(2);
  }
  return undefined;
}

interface Candidate {
  ref: string;
  index: number;
}

function candidateList(lines: readonly string[], candidates: readonly Candidate[]): string {
  const shown = candidates.slice(0, CANDIDATES_SHOWN).map(({ ref, index }, i) => {
    const line = lines[index]!;
    const role = roleOfLine(line);
    const what = role === 'text' ? `text "${nameOfLine(line)}"` : `${role} "${nameOfLine(line)}"`;
    const place = placeOf(lines, index);
    return `${i + 1}. ${what} ${refMark(ref)}${place ? ` · in ${place}` : ''}`;
  });
  if (candidates.length > CANDIDATES_SHOWN) shown.push(`… ${candidates.length - CANDIDATES_SHOWN} more`);
  return shown.join('\n');
}

const queryOf = ({ target }: TargetSlot): TargetQuery => ({
  name: target.name,
  ...(target.role !== undefined ? { role: target.role } : {}),
});

/**
 * Resolves every target of `args` with one lookup (`read`, given each distinct role and name), or
 * says why not. Arguments without a target are returned as they are, and nothing is read.
 */
export async function resolveTargets(
  args: Record<string, unknown>,
  read: (queries: TargetQuery[]) => Promise<TargetLookup>,
): Promise<TargetResolution> {
  const slots = targetSlots(args);
  if (!slots.length) return { ok: true, args, resolved: [] };
  const twice = slots.find(namedTwice);
  if (twice) {
    const { key, refKey, selectorKey } = twice;
    return {
      ok: false,
      slots,
      text: `${twice.path}: name the element one way, by \`${refKey}\`, \`${selectorKey}\` or \`${key}\`, not several. Nothing was done.`,
    };
  }
  const queries = new Map(slots.map((slot) => [JSON.stringify(queryOf(slot)), queryOf(slot)]));
  const page = await read([...queries.values()]);
  const resolved: ResolvedTarget[] = [];
  for (const slot of slots) {
    const match = targetMatch(queryOf(slot));
    const candidates: Candidate[] = [];
    page.lines.forEach((line, index) => {
      const ref = matchingRef(line, match);
      if (ref) candidates.push({ ref, index });
    });
    const { nth, ...named } = slot.target;
    const asked = targetText(named);
    const where = slots.length > 1 ? `${slot.path}: ` : '';
    if (!candidates.length) {
      return {
        ok: false,
        slots,
        text:
          `${where}No element on the page is printed as ${asked}, in the frames Tabwright may read. The role and ` +
          'name must be the ones a snapshot prints, whole (hidden elements are not printed); call find with part ' +
          'of the name to see what the page shows. Nothing was done.',
      };
    }
    const pick = nth ?? (candidates.length === 1 ? 1 : undefined);
    if (pick === undefined || pick > candidates.length) {
      const count = plural(candidates.length, 'element');
      const text =
        pick === undefined
          ? `${where}${count} on the page are printed as ${asked}: pass \`nth\` (1 to ${candidates.length}, in ` +
            'snapshot order) with the same role and name, or act on one by its ref. Nothing was done.'
          : `${where}nth=${pick} is past the ${count} printed as ${asked}: pass \`nth\` from 1 to ` +
            `${candidates.length}, or act on one by its ref. Nothing was done.`;
      return { ok: false, slots, text, candidates: candidateList(page.lines, candidates), url: page.url };
    }
    resolved.push({ slot, ref: candidates[pick - 1]!.ref });
  }
  return { ok: true, args: withTargetRefs(args, new Map(resolved.map(({ slot, ref }) => [slot, ref]))), resolved };
}
