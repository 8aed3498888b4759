/**
 * The frame every page action runs in: the action is registered under its id so the panel can
 * cancel it, the document is watched from before the first event, and once the action is done the
 * page is given time to settle (see `settle.ts`). Refusals become errors the model can act on.
 */
import type { DialogAnswer } from '../dialogs/channel';
import { PageError, type PageEnv } from '../env';
import { ensureActionable, NotActionable, type ActionabilityOptions, type ActionPoint } from './actionability';
import { describeElement } from './describe';
import { framesHeldBack, markFrames } from './hidden-frames';
import type { RecordAsker } from '../listener-channel';
import { DEFAULT_SETTLE, SettleWatch, type Due, type SettleOptions, type SettleReason } from './settle';
import { ActionCancelled } from './timing';

export interface ActionSpec {
  actionId?: string;
  settle?: Partial<SettleOptions>;
  dialogs?: { token: string; answer?: DialogAnswer };
  sentAt?: number;
}

/** The action line, or a function that writes it once the page has settled (to report the result). */
export type ActionLine = string | (() => string);

export interface ActionOutcome {
  description: string;
  /** How the wait ended; `ms` from before the action, `workMs` the action, `settleMs` the wait. */
  settled: { reason: SettleReason; ms: number; workMs: number; settleMs: number; beats?: number };
  /** The document began to navigate away: the panel waits for the new one to load. */
  navigating: boolean;
  /** The tab is hidden and the action's effect waits on frames it does not draw: what to tell the agent. */
  framesHeldBack?: string;
  url: string;
  documentId: string;
}

/** What the page's own record says is due (see `Due`). */
function workDue(record: RecordAsker, doc: Document): Due {
  // Both asked every time: asking about port messages also starts their count afresh.
  const soon = [record(doc, 'soon:pending'), record(doc, 'frames:pending')].includes(true);
  if (soon) return 'soon';
  return record(doc, 'soon:later') ? 'later' : 'none';
}

/** Waits for `element` to be actionable; a refusal names the failed check and says what to do. */
export async function actionable(
  element: Element,
  verb: string,
  options: ActionabilityOptions,
  signal: AbortSignal,
): Promise<ActionPoint> {
  try {
    return await ensureActionable(element, options, signal);
  } catch (error) {
    if (!(error instanceof NotActionable)) throw error;
    throw new PageError(
      `Refused to ${verb} ${describeElement(element)}: ${error.detail} (failed check: ${error.check}). ` +
        `Nothing was done. ${error.advice}`,
      `not-actionable:${error.check}`,
    );
  }
}

export async function runAction(
  env: PageEnv,
  spec: ActionSpec,
  work: (signal: AbortSignal) => Promise<ActionLine> | ActionLine,
  options: { acts?: boolean } = {},
): Promise<ActionOutcome> {
  // The panel gave up on an action that waited behind the user's dialog; done now, it would surprise them.
  if (spec.sentAt !== undefined && env.dialogRelay()?.nativeSince(spec.sentAt)) {
    throw new PageError(
      'One of the page’s own dialogs opened while the action was on its way, so it was not done. ' +
        'Call snapshot once the user has answered it.',
      'dialog-open',
    );
  }
  const controller = new AbortController();
  const id = spec.actionId;
  if (id) {
    env.waits.get(id)?.abort();
    env.waits.set(id, controller);
  }
  // Armed before the first event: whatever the action makes the page open is answered or dismissed.
  if (spec.dialogs) env.dialogRelay()?.arm(spec.dialogs.token, spec.dialogs.answer ?? null, { acting: true });
  const record = env.pageRecord();
  const doc = env.document;
  // Only a record that took the mark can vouch that nothing is set for soon (a document loaded
  // before the site was allowed has none, and every question to it answers no).
  const marked = record?.(doc, 'soon:mark') === true;
  const due = marked ? (): Due => workDue(record!, doc) : undefined;
  const watch = new SettleWatch(doc, due);
  const frames = markFrames(record, doc);
  try {
    const line = await work(controller.signal);
    const settled = await watch.settle(
      // Work from before the mark (a page still loading) is not in the record: only an action's idle is vouched for.
      { ...DEFAULT_SETTLE, ...spec.settle, idleVouched: options.acts !== false },
      controller.signal,
    );
    const heldBack = settled.reason === 'navigation' ? undefined : framesHeldBack(record, env.document, frames);
    return {
      description: typeof line === 'function' ? line() : line,
      settled: {
        reason: settled.reason,
        ms: settled.ms,
        workMs: settled.workMs,
        settleMs: settled.settleMs,
        ...(settled.beats !== undefined ? { beats: settled.beats } : {}),
      },
      navigating: settled.reason === 'navigation',
      ...(heldBack ? { framesHeldBack: heldBack } : {}),
      url: env.document.URL,
      documentId: env.documentId,
    };
  } catch (error) {
    if (error instanceof ActionCancelled) throw new PageError('The action was cancelled.', 'cancelled');
    throw error;
  } finally {
    if (marked) record!(doc, 'soon:unmark');
    watch.dispose();
    if (id && env.waits.get(id) === controller) env.waits.delete(id);
  }
}
