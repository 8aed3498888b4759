/**
 * Messages between the panel and the page agent. Both sides parse with these schemas, so a page
 * that tampers with the agent's replies produces an error, not a surprise.
 */
import { z } from 'zod';
import { TargetQuery } from './target-match';

export const ElementTarget = z.union([z.object({ ref: z.string().min(1) }), z.object({ selector: z.string().min(1) })]);
export type ElementTarget = z.infer<typeof ElementTarget>;

export const SnapshotCommand = z.object({
  op: z.literal('snapshot'),
  /** Chrome's id of the frame the agent runs in; prefixes refs in child frames (`f7e12`). */
  frameId: z.number().int().nonnegative().default(0),
  /** The next free ref number for this tab: refs are never reused, even across documents. */
  refBase: z.number().int().positive(),
  /** Applies in the top frame only. */
  selector: z.string().optional(),
  /** The frame handshake's nonce, when the tab has child frames (all frames get the same one). */
  nonce: z.string().optional(),
  /** Child frames of this frame, whose introductions the agent waits for before walking. */
  childFrames: z.array(z.number().int().positive()).optional(),
  /** Elements looked up by role and name: each line they name gets a ref, even one a snapshot prints without. */
  targets: z.array(TargetQuery).max(100).optional(),
});

/**
 * After a snapshot that found iframes: which frame each iframe element holds. The agent waits (a
 * moment, bounded) for its child frames to introduce themselves, then matches them.
 */
export const FrameSlotsCommand = z.object({
  op: z.literal('frameSlots'),
  nonce: z.string(),
  childFrames: z.array(z.number().int().positive()),
});

export const GetTextCommand = z.object({
  op: z.literal('getText'),
  selector: z.string().optional(),
  maxChars: z.number().int().nonnegative(),
});

export const ReadDomCommand = z.object({
  op: z.literal('readDom'),
  selector: z.string().optional(),
  maxChars: z.number().int().nonnegative(),
});

export const WaitForCommand = z.object({
  op: z.literal('waitFor'),
  waitId: z.string(),
  text: z.string().optional(),
  selector: z.string().optional(),
  /** An element as a snapshot of this document would print it. */
  target: TargetQuery.optional(),
  gone: z.boolean().default(false),
  /** Off: an element in the DOM counts even while hidden (connectors wait for markup, not for the screen). */
  visible: z.boolean().default(true),
  timeoutMs: z.number().int().positive(),
});

export const CancelWaitCommand = z.object({ op: z.literal('cancelWait'), waitId: z.string() });

/** Reads (and optionally sets) the scroll position, for full-page screenshots. */
export const ViewportCommand = z.object({
  op: z.literal('viewport'),
  scrollTo: z.object({ x: z.number(), y: z.number() }).optional(),
});

/**
 * Where this document's frame elements (iframe, frame, object, embed...) are in its viewport and
 * which child frame each holds, to paint refused frames over in screenshots. Like snapshot, the
 * document first introduces itself to its parent under `nonce`, then waits (bounded) for the
 * listed child frames to introduce themselves.
 */
export const FrameRectsCommand = z.object({
  op: z.literal('frameRects'),
  frameId: z.number().int().nonnegative(),
  nonce: z.string().min(1),
  childFrames: z.array(z.number().int().positive()).default([]),
  /** Animation frames to let pass first, so that a scroll just made has reached the screen. */
  afterFrames: z.number().int().min(0).max(5).default(0),
});

/** How long the page waits after an action for its effect to show (see page/actions/settle.ts). */
export const SettleSpec = z.object({
  quietBeats: z.number().int().nonnegative().max(60).optional(),
  quietMs: z.number().int().nonnegative().optional(),
  idleMs: z.number().int().nonnegative().optional(),
  capMs: z.number().int().positive().max(30_000).optional(),
});

/** How the agent wants a dialog its action opens to be answered: OK or Cancel, and a prompt's text. */
export const DialogAnswer = z.object({ accept: z.boolean(), promptText: z.string().max(10_000).optional() }).strict();
export type DialogAnswer = z.infer<typeof DialogAnswer>;

/**
 * The dialog relay of the action's own frame armed by the action itself (page/dialogs/relay.ts):
 * the answer for the first dialog it opens, or none to dismiss them all (absent, not null: Chrome
 * drops null members of script arguments); `token` collects them.
 */
export const DialogArming = z.object({
  token: z.string().min(1).max(64),
  answer: DialogAnswer.optional(),
});

/**
 * Every action carries an id (to cancel it with `cancelWait`) and when it was sent, may tune its
 * settle wait, and may arm its frame's dialog relay.
 */
const actionFields = {
  actionId: z.string().optional(),
  /** When the panel sent the action (epoch ms): one that waited behind the user's dialog is not run. */
  sentAt: z.number().optional(),
  settle: SettleSpec.optional(),
  dialogs: DialogArming.optional(),
};

export const ClickCommand = z.object({
  op: z.literal('click'),
  target: ElementTarget,
  button: z.enum(['left', 'middle', 'right']).default('left'),
  double: z.boolean().default(false),
  ...actionFields,
});

export const TypeCommand = z.object({
  op: z.literal('type'),
  target: ElementTarget,
  text: z.string(),
  clear: z.boolean().default(true),
  submit: z.boolean().default(false),
  ...actionFields,
});

export const FieldValue = z.union([z.string(), z.boolean(), z.array(z.string())]);

export const FillFormCommand = z.object({
  op: z.literal('fillForm'),
  fields: z.array(z.object({ target: ElementTarget, value: FieldValue })).min(1),
  submit: z.boolean().default(false),
  ...actionFields,
});

export const SelectOptionCommand = z.object({
  op: z.literal('selectOption'),
  target: ElementTarget,
  values: z.array(z.string()).optional(),
  labels: z.array(z.string()).optional(),
  ...actionFields,
});

export const PressKeyCommand = z.object({
  op: z.literal('pressKey'),
  key: z.string().min(1),
  target: ElementTarget.optional(),
  ...actionFields,
});

export const ScrollCommand = z.object({
  op: z.literal('scroll'),
  target: ElementTarget.optional(),
  to: z.enum(['top', 'bottom']).optional(),
  direction: z.enum(['up', 'down', 'left', 'right']).optional(),
  amount: z.number().positive().optional(),
  ...actionFields,
});

export const HoverCommand = z.object({ op: z.literal('hover'), target: ElementTarget, ...actionFields });

/** A file to put into a file input or drop onto a drop zone; the panel checked the base64 and the sizes. */
export const UploadFile = z.object({
  name: z.string().min(1),
  mimeType: z.string().default(''),
  contentBase64: z.string(),
});

export const UploadCommand = z.object({
  op: z.literal('upload'),
  target: ElementTarget,
  files: z.array(UploadFile).min(1),
  /**
   * The DOM event by which the page's own world reports calls to showOpenFilePicker while the
   * command runs (see page/main-world/file-picker-watch.ts); `${pickerEvent}-done` ends the watch.
   */
  pickerEvent: z.string().regex(/^tabwright-picker-[0-9a-f]+$/),
  ...actionFields,
});

/** Drags the `source` element onto `to` (both in this document), as HTML5 drag and drop or with the pointer. */
export const DragCommand = z.object({
  op: z.literal('drag'),
  source: ElementTarget,
  to: ElementTarget,
  ...actionFields,
});

/** Waits for the document to settle without acting (after a same-document history step). */
export const SettleCommand = z.object({ op: z.literal('settle'), ...actionFields });

/** Which element targets are password fields, so values typed into them are masked. */
export const InspectTargetsCommand = z.object({ op: z.literal('inspectTargets'), targets: z.array(ElementTarget) });

/** Shows the outline naming the agent while an action runs (for at most `leaseMs`), or removes it. */
export const OutlineCommand = z.object({
  op: z.literal('outline'),
  show: z.boolean(),
  label: z.string().max(200).default(''),
  colour: z
    .string()
    .regex(/^#[0-9a-f]{6}$/i)
    .default('#1a73e8'),
  leaseMs: z.number().int().positive().default(60_000),
});

/** What a connector field reads from the element it names (see connectors/fields.ts for authors' words). */
export const ExtractPick = z.enum(['text', 'href', 'value', 'number', 'exists']);

export const ExtractField = z.object({
  selector: z.string().min(1).optional(),
  label: z.string().min(1).optional(),
  pick: ExtractPick,
  attribute: z.string().min(1).optional(),
  all: z.boolean(),
});
export type ExtractField = z.infer<typeof ExtractField>;

/** A connector's declarative read: `fields` from each of `rows` (inside `within`), or once from the page. */
export const ExtractCommand = z.object({
  op: z.literal('extract'),
  rows: z.string().min(1).optional(),
  within: z.string().min(1).optional(),
  fields: z.record(z.string(), ExtractField),
  /** 0 or absent: every row. */
  limit: z.number().int().nonnegative().optional(),
});

/** Whether the document shows the connector's sign-in form. */
/** How long ago the person last typed, clicked or scrolled in the document. */
export const PersonIdleCommand = z.object({ op: z.literal('personIdle') });

export const PageStateCommand = z.object({ op: z.literal('pageState'), signedOutSelector: z.string().optional() });

/** A request the page itself could make: same origin, the page's own cookies. */
export const FetchCommand = z.object({
  op: z.literal('fetch'),
  url: z.string(),
  method: z.string(),
  /** Sent as `application/x-www-form-urlencoded`. */
  form: z.record(z.string(), z.string()).optional(),
  headers: z.record(z.string(), z.string()).optional(),
  body: z.string().optional(),
  /** Characters of text kept from the response. */
  maxChars: z.number().int().nonnegative(),
});

export const PageCommand = z.discriminatedUnion('op', [
  SnapshotCommand,
  InspectTargetsCommand,
  ClickCommand,
  TypeCommand,
  FillFormCommand,
  SelectOptionCommand,
  PressKeyCommand,
  ScrollCommand,
  HoverCommand,
  UploadCommand,
  DragCommand,
  SettleCommand,
  GetTextCommand,
  ReadDomCommand,
  WaitForCommand,
  CancelWaitCommand,
  ViewportCommand,
  FrameSlotsCommand,
  OutlineCommand,
  FrameRectsCommand,
  ExtractCommand,
  PageStateCommand,
  FetchCommand,
  PersonIdleCommand,
]);
export type PageCommand = z.input<typeof PageCommand>;

export const SnapshotReply = z.object({
  title: z.string(),
  url: z.string(),
  lines: z.array(z.string()),
  /** Where child frames' snapshots belong: after `line`, by the child's frame id. */
  frames: z.array(z.object({ line: z.number().int().nonnegative(), frameId: z.number().int().optional() })).default([]),
  nextRef: z.number().int().positive(),
  /** Random per document, made by the page agent: changes exactly when the document does. */
  documentId: z.string(),
});

const FrameSlots = z.array(z.object({ line: z.number().int().nonnegative(), frameId: z.number().int().optional() }));

export const TextReply = z.object({
  title: z.string(),
  url: z.string(),
  text: z.string(),
  /** Length before capping. */
  total: z.number().int().nonnegative(),
  documentId: z.string(),
});

export const DomReply = z.object({ url: z.string(), html: z.string(), total: z.number().int().nonnegative() });

export const WaitReply = z.object({ met: z.boolean(), waitedMs: z.number().nonnegative() });

export const ViewportReply = z.object({
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  scrollWidth: z.number(),
  scrollHeight: z.number(),
  devicePixelRatio: z.number(),
});

/** Per target: not found (a stale ref, no match), or whether it is a secret field and how the page names it. */
export const InspectTargetsReply = z.object({
  targets: z.array(
    z.union([
      z.object({ found: z.literal(false) }),
      z.object({ found: z.literal(true), secret: z.boolean(), role: z.string(), name: z.string() }),
    ]),
  ),
});

const RectReply = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

export const FrameRectsReply = z.object({
  viewport: z.object({ width: z.number(), height: z.number() }),
  /** `box`: the element's border box; `content`: where the child's viewport sits (CSS pixels, this viewport). */
  frames: z.array(z.object({ frameId: z.number().int().optional(), box: RectReply, content: RectReply })).max(5_000),
});
export type FrameRectsReply = z.infer<typeof FrameRectsReply>;

const ExtractedValue = z.union([
  z.string(),
  z.number(),
  z.boolean(),
  z.null(),
  z.array(z.union([z.string(), z.number(), z.null()])),
]);
export const ExtractReply = z.array(z.record(z.string(), ExtractedValue));

export const FetchReply = z.object({
  status: z.number().int(),
  url: z.string(),
  redirected: z.boolean(),
  contentType: z.string(),
  text: z.string(),
  truncated: z.boolean(),
});
export type FetchReply = z.infer<typeof FetchReply>;

export const ActionReply = z.object({
  description: z.string(),
  /** How the settle wait ended and how long the action took in the page. */
  settled: z
    .object({
      reason: z.enum(['quiet', 'idle', 'cap', 'navigation']),
      ms: z.number(),
      /** The action alone and the wait alone, for the call's timing. */
      workMs: z.number().optional(),
      settleMs: z.number().optional(),
      /** The quiet beats the wait ended on. */
      beats: z.number().optional(),
    })
    .optional(),
  /** The document began navigating away during the action. */
  navigating: z.boolean().optional(),
  /** The tab is hidden and what the action set off waits on frames it does not draw, in words. */
  framesHeldBack: z.string().optional(),
  url: z.string().optional(),
  documentId: z.string().optional(),
});

const replies = {
  snapshot: SnapshotReply,
  inspectTargets: InspectTargetsReply,
  click: ActionReply,
  type: ActionReply,
  fillForm: ActionReply,
  selectOption: ActionReply,
  pressKey: ActionReply,
  scroll: ActionReply,
  hover: ActionReply,
  upload: ActionReply,
  drag: ActionReply,
  settle: ActionReply,
  getText: TextReply,
  readDom: DomReply,
  waitFor: WaitReply,
  cancelWait: z.object({ cancelled: z.boolean() }),
  viewport: ViewportReply,
  frameSlots: z.object({ frames: FrameSlots }),
  outline: z.object({ shown: z.boolean() }),
  frameRects: FrameRectsReply,
  extract: ExtractReply,
  pageState: z.object({ signedOut: z.boolean() }),
  fetch: FetchReply,
  personIdle: z.object({ idleMs: z.number().nonnegative().nullable() }),
} as const;
type Replies = typeof replies;

export type PageReply<C extends PageCommand> = z.infer<Replies[C['op']]>;

export function replySchema(command: PageCommand): Replies[keyof Replies] {
  return replies[command.op];
}

/**
 * Where a reply was produced: the document's URL at the moment the agent answered, and the agent's
 * id for that document. The panel lets nothing of a reply out before that URL passed the gates.
 */
const Provenance = { url: z.string(), documentId: z.string() };

/** What the agent returns from every command: a value, or an error meant for the model. */
export const PageEnvelope = z.union([
  z.object({ ok: z.literal(true), value: z.unknown(), ...Provenance }),
  z.object({ ok: z.literal(false), error: z.string(), code: z.string().optional(), ...Provenance }),
]);
export type PageEnvelope = z.infer<typeof PageEnvelope>;
