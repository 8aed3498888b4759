/**
 * Messages between the panel and the page agent. Both sides parse with these schemas, so a page
 * that tampers with the agent's replies produces an error, not a surprise.
 */
import { z } from 'zod';

export const ElementTarget = z.union([z.object({ ref: z.string().min(1) }), z.object({ selector: z.string().min(1) })]);
export type ElementTarget = z.infer<typeof ElementTarget>;

export const SnapshotCommand = z.object({
  op: z.literal('snapshot'),
  /** The frame the agent runs in; prefixes refs in child frames. */
  frameId: z.number().int().nonnegative(),
  /** The next free ref number for this tab: refs are never reused, even across documents. */
  refBase: z.number().int().positive(),
  selector: z.string().optional(),
});

export const ClickCommand = z.object({
  op: z.literal('click'),
  target: ElementTarget,
  button: z.enum(['left', 'middle', 'right']).default('left'),
  double: z.boolean().default(false),
});

export const PageCommand = z.discriminatedUnion('op', [SnapshotCommand, ClickCommand]);
export type PageCommand = z.input<typeof PageCommand>;

export const SnapshotReply = z.object({
  title: z.string(),
  url: z.string(),
  lines: z.array(z.string()),
  nextRef: z.number().int().positive(),
});

export const ActionReply = z.object({ description: z.string() });

const replies = { snapshot: SnapshotReply, click: ActionReply } as const;
type Replies = typeof replies;

export type PageReply<C extends PageCommand> = z.infer<Replies[C['op']]>;

export function replySchema(command: PageCommand): Replies[keyof Replies] {
  return replies[command.op];
}

/** What the agent returns from every command: a value, or an error meant for the model. */
export const PageEnvelope = z.union([
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: z.string(), code: z.string().optional() }),
]);
export type PageEnvelope = z.infer<typeof PageEnvelope>;
