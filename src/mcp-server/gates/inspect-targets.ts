/**
 * Asks the page about the element targets in a call's arguments, one query per frame (refs carry
 * their frame: `f12e5`): which are secret fields, so the values typed into them are masked on the
 * card, in the audit log and in the result, and what each element is — its role and name as the
 * page gives them now — so the confirmation card names the target from the page, not from what the
 * agent says about it.
 */
import type { PagePort } from '../browser-port';
import type { ElementTargetArg } from '../tool-spec';
import type { ConfirmTarget } from './types';

type Target = ElementTargetArg;

export interface TargetReport {
  /** Refs/selectors that name secret fields. */
  secret: ReadonlySet<string>;
  /** Every element target asked about, in argument order, with what the page says it is. */
  described: ConfirmTarget[];
}

export function frameOfRef(ref: string): number {
  const match = /^f(\d+)e\d+$/.exec(ref);
  return match ? Number(match[1]) : 0;
}

export const targetKey = (target: Target) => ('ref' in target ? target.ref : target.selector);

/**
 * Every ref or selector that names an element in the arguments (fill_form's fields included), once
 * each; drag's drop target (`toRef`/`toSelector`) follows its source.
 */
export function elementTargets(args: Record<string, unknown>): Target[] {
  const found = new Map<string, Target>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    if (typeof object.ref === 'string') found.set(`r:${object.ref}`, { ref: object.ref });
    else if (typeof object.selector === 'string') found.set(`s:${object.selector}`, { selector: object.selector });
    if (typeof object.toRef === 'string') found.set(`r:${object.toRef}`, { ref: object.toRef });
    else if (typeof object.toSelector === 'string')
      found.set(`s:${object.toSelector}`, { selector: object.toSelector });
    Object.values(object).forEach(visit);
  };
  visit(args);
  return [...found.values()];
}

/**
 * `describe`: the user is about to be asked, so every element target is described; otherwise only
 * `typed`, the targets that receive a value, are asked about (and none at all when there are none).
 */
export async function inspectTargets(
  page: PagePort,
  tabId: number,
  args: Record<string, unknown>,
  typed: Target[],
  describe: boolean,
  signal: AbortSignal,
): Promise<TargetReport> {
  const targets = describe ? elementTargets(args) : typed;
  const secret = new Set<string>();
  const described = new Map<string, ConfirmTarget>();
  const byFrame = new Map<number, Target[]>();
  for (const target of targets) {
    const frameId = 'ref' in target ? frameOfRef(target.ref) : 0;
    byFrame.set(frameId, [...(byFrame.get(frameId) ?? []), target]);
  }
  for (const [frameId, inFrame] of byFrame) {
    const reply = await page.run(tabId, { op: 'inspectTargets', targets: inFrame }, { frameId, signal });
    inFrame.forEach((target, index) => {
      const key = targetKey(target);
      const seen = reply.targets[index];
      if (seen?.found && seen.secret) secret.add(key);
      described.set(
        key,
        seen?.found ? { target: key, element: { role: seen.role, name: seen.name } } : { target: key },
      );
    });
  }
  return { secret, described: describe ? targets.map((target) => described.get(targetKey(target))!) : [] };
}
