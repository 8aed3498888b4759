/**
 * Elements named in a call's arguments by role and name (`target: { role, name, nth? }`, drag's
 * `toTarget`, and the same in each item of a list such as fill_form's fields): where they are,
 * how they read on a card and in the audit log, and the arguments once each is looked up as the
 * ref it names (`ref` beside `target`, `toRef` beside `toTarget`), which is what the tool acts on.
 */
import { z } from 'zod';
import { neutraliseText } from '../shared/text/line';

export const TargetArg = z
  .object({
    role: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .describe(
        'The role the snapshot prints before the name: button, link, region, gridcell, listitem, …, or text ' +
          'for a run of text (- "Next"). Without it, any line with that name matches',
      ),
    name: z
      .string()
      .min(1)
      .max(10_000)
      .describe('The name exactly as the snapshot prints it between the quotes (the text, for a run of text)'),
    nth: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .optional()
      .describe('Which one, counted from 1 in snapshot order, when several lines match; otherwise leave it out'),
  })
  .strict();
export type TargetArg = z.infer<typeof TargetArg>;

/** Where a target sits: the object that holds it and under which key, with the key its ref goes under. */
export interface TargetSlot {
  /** Where it is in the arguments, as the agent wrote them: `target`, `toTarget`, `fields[1].target`. */
  path: string;
  holder: Record<string, unknown>;
  key: 'target' | 'toTarget';
  refKey: 'ref' | 'toRef';
  selectorKey: 'selector' | 'toSelector';
  target: TargetArg;
}

const SLOT_KEYS = [
  { key: 'target', refKey: 'ref', selectorKey: 'selector' },
  { key: 'toTarget', refKey: 'toRef', selectorKey: 'toSelector' },
] as const;

const isTarget = (value: unknown): value is TargetArg =>
  !!value && typeof value === 'object' && typeof (value as { name?: unknown }).name === 'string';

/** Every target in the arguments, in argument order (a list's items in their order). */
export function targetSlots(args: Record<string, unknown>): TargetSlot[] {
  const slots: TargetSlot[] = [];
  const visit = (value: unknown, path: string) => {
    if (Array.isArray(value)) return value.forEach((item, index) => visit(item, `${path}[${index}]`));
    if (!value || typeof value !== 'object') return;
    const holder = value as Record<string, unknown>;
    const at = (key: string) => (path ? `${path}.${key}` : key);
    for (const keys of SLOT_KEYS) {
      const target = holder[keys.key];
      if (isTarget(target)) slots.push({ path: at(keys.key), holder, ...keys, target });
    }
    for (const [key, child] of Object.entries(holder))
      if (key !== 'target' && key !== 'toTarget') visit(child, at(key));
  };
  visit(args, '');
  return slots;
}

/** A slot that also names its element by ref or selector: which to act on would be a guess. */
export function namedTwice(slot: TargetSlot): boolean {
  return slot.holder[slot.refKey] !== undefined || slot.holder[slot.selectorKey] !== undefined;
}

/**
 * How a target reads where a person or the agent sees it: `button "Save"`, `"Save"` with no role,
 * `button "Save" nth=2`. The name is neutralised as the page's names are, so it cannot forge a line.
 */
export function targetText(target: TargetArg): string {
  const role = target.role?.trim().toLowerCase();
  const name = `"${neutraliseText(target.name)}"`;
  return `${role ? `${role} ` : ''}${name}${target.nth !== undefined ? ` nth=${target.nth}` : ''}`;
}

/** The arguments with each slot's ref beside its target, by slot; everything else is the same. */
export function withTargetRefs(
  args: Record<string, unknown>,
  refs: ReadonlyMap<TargetSlot, string>,
): Record<string, unknown> {
  const byHolder = new Map<object, Array<[string, string]>>();
  for (const [slot, ref] of refs) byHolder.set(slot.holder, [...(byHolder.get(slot.holder) ?? []), [slot.refKey, ref]]);
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!value || typeof value !== 'object') return value;
    const copy = Object.fromEntries(Object.entries(value).map(([key, child]) => [key, rewrite(child)]));
    for (const [key, ref] of byHolder.get(value) ?? []) copy[key] = ref;
    return copy;
  };
  return rewrite(args) as Record<string, unknown>;
}
