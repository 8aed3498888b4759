/**
 * How every action tool runs, panel side: remember the last snapshot of the document, watch the
 * tab's navigations, run the command in the page (cancellable by id), follow a navigation it set
 * off (the document may vanish mid-command: that is a navigation, not a crash), then answer with
 * the action line and either the diff against the previous snapshot of the same document or, on a
 * new document, the full snapshot.
 */
import type { z } from 'zod';
import { meansDocumentGone, PageErrorCode } from '../page/error-codes';
import { parseRef } from '../page/refs';
import type { ActionReply, ElementTarget, PageCommand } from '../page/protocol';
import { labelOfLine, refMark } from '../page/snapshot-line';
import { PageCommandError, type NavigationWatch, type TabInfo } from './browser-port';
import type { ResponseBuilder } from './response';
import type { Snapshot } from './snapshot-service';
import type { PageToolContext, ToolContext } from './tool';
import { REFUSED_REPLY } from './page-guard';
import { DialogHeld, heldUnreadText } from './dialogs';
import { TIMING_META, type ActionTiming } from '../contract/mcp';
import { targetText, type TargetArg } from './target-args';

/** Page actions this flow runs; `actionId` is filled in here. */
type ActionCommand = Extract<
  PageCommand,
  {
    op: 'click' | 'type' | 'fillForm' | 'selectOption' | 'pressKey' | 'scroll' | 'hover' | 'upload' | 'drag' | 'settle';
  }
>;

export const ACTION_LOAD_TIMEOUT_MS = 15_000;
/**
 * Longest a page may take to answer an action: actionability and settle are bounded in the page,
 * so a page that stays silent is blocked — usually by an alert, confirm or "leave site?" dialog,
 * which stops its scripts until someone answers it.
 */
export const ACTION_DEADLINE_MS = 30_000;
/** After a new document loads, its scripts often render a moment later: a short settle. */
export const AFTER_LOAD_SETTLE = { quietMs: 100, idleMs: 150, capMs: 2_000 };

/** Whether an error means the document went away; Chrome's wording varies, so a navigation seen counts too. */
function documentGone(error: unknown, watch: NavigationWatch | undefined): boolean {
  if (!(error instanceof PageCommandError)) return false;
  return meansDocumentGone(error.code) || (error.code === PageErrorCode.Scripting && !!watch?.started);
}

export interface ElementArgs {
  ref?: string | undefined;
  selector?: string | undefined;
  /** Looked up before the tool runs: the server puts the ref it names in `ref`. */
  target?: TargetArg | undefined;
}

/** Whether the arguments name an element at all (tools that also act on the focused element ask). */
export const namesElement = (args: ElementArgs) =>
  args.ref !== undefined || args.selector !== undefined || args.target !== undefined;

/** The element target and the frame it lives in, or a message saying what to pass. */
export function elementTarget(
  args: ElementArgs,
  what = 'element',
): { target: ElementTarget; frameId: number } | string {
  if (args.ref !== undefined) {
    const parsed = parseRef(args.ref);
    if (!parsed) return `"${args.ref}" is not a ref. Refs look like e12 or f3e7; take one from the latest snapshot.`;
    return { target: { ref: args.ref.trim() }, frameId: parsed.frameId };
  }
  if (args.selector !== undefined) return { target: { selector: args.selector }, frameId: 0 };
  if (args.target !== undefined)
    return `The ${what} named by \`target\` was not looked up in the page. Call find, then pass its \`ref\`.`;
  return `Say which ${what}: pass \`ref\` (from the latest snapshot), \`target\` (role and name as the snapshot prints them) or a CSS \`selector\`.`;
}

/**
 * How an element is named when the page could not say (it navigated before answering): its line in
 * the last snapshot (`link "Second page" [e3]`), what the agent named it by, or the selector.
 */
export function targetLabel(ctx: PageToolContext, args: ElementArgs): string {
  if (args.ref !== undefined) {
    const marker = refMark(args.ref.trim());
    const line = ctx.snapshots.last(ctx.tab.id)?.lines.find((l) => l.includes(marker));
    const head = (line && labelOfLine(line)) || (args.target && targetText({ ...args.target, nth: undefined }));
    return head ? `${head} ${marker}` : marker;
  }
  return args.selector !== undefined ? `the element matching ${args.selector}` : 'the focused element';
}

function randomId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
}

function settleNote(reply: z.infer<typeof ActionReply> | undefined): string {
  if (reply?.framesHeldBack) return `. ${reply.framesHeldBack}`;
  if (reply?.settled?.reason !== 'cap') return '';
  // How long it waited is in the timing _meta, not in what the model reads.
  return ' (the page kept changing; stopped waiting)';
}

/** Reports the tab after an action through the response builder, which decides diff or page. */
export function reportPage(
  ctx: ToolContext,
  response: ResponseBuilder,
  tab: TabInfo,
  line: string,
  before: Snapshot | undefined,
): Promise<void> {
  return response.reportPage({ readPage: (at) => ctx.readPage(at), tab, line, before });
}

async function followNavigation(ctx: ToolContext, watch: NavigationWatch | undefined, expected: boolean) {
  if (!watch) return 'none';
  return watch.settled({ expectStartMs: expected ? 1_500 : undefined, timeoutMs: ACTION_LOAD_TIMEOUT_MS }, ctx.signal);
}

/**
 * Runs one page action and writes its result. Refusals from the page (stale ref, not actionable,
 * bad value) propagate as `PageCommandError`s, which the server turns into error results.
 */
export async function performAction(
  ctx: PageToolContext,
  response: ResponseBuilder,
  command: ActionCommand,
  options: { frameId?: number; fallbackLine: string; deadlineMs?: number },
): Promise<void> {
  const tab = ctx.tab;
  const page = ctx.page;
  const frameId = options.frameId ?? 0;
  const before = ctx.snapshots.last(tab.id);
  const watch = ctx.browser.watchNavigation?.(tab.id);
  const actionId = randomId();
  const cancel = () => void page.run(tab.id, { op: 'cancelWait', waitId: actionId }, { frameId }).catch(() => {});
  ctx.signal.addEventListener('abort', cancel, { once: true });
  try {
    let reply: z.infer<typeof ActionReply> | undefined;
    let lost = false;
    const deadline = AbortSignal.timeout(options.deadlineMs ?? ACTION_DEADLINE_MS);
    const sent = performance.now();
    try {
      const signal = AbortSignal.any([ctx.signal, deadline]);
      const action = { ...command, actionId, sentAt: Date.now() } as ActionCommand;
      // A dialog the action opens is answered as the call said, or dismissed; never left to block the page.
      reply = await page.run(tab.id, action, { frameId, signal, arm: true });
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      if (deadline.aborted) {
        cancel();
        throw new PageCommandError(
          `The page did not answer within ${Math.round((options.deadlineMs ?? ACTION_DEADLINE_MS) / 1000)} s. It ` +
            'may be showing a dialog (alert, confirm, "leave site?") that blocks it: ask the user to answer it, ' +
            'then call snapshot to see what happened.',
          'page-unresponsive',
        );
      }
      // The action ran, but the page moved somewhere the gates refuse before it answered.
      const withheld = error instanceof PageCommandError && error.code === REFUSED_REPLY;
      if (!withheld && !documentGone(error, watch)) throw error;
      lost = true; // the document went away, or left the allowed pages, while the command ran
    }
    const pageMs = performance.now() - sent;
    const outcome = await followNavigation(ctx, watch, lost || !!reply?.navigating);
    let line = (reply?.description ?? options.fallbackLine) + settleNote(reply);
    if (outcome === 'failed') line += `; the page it led to failed to load (${watch?.error})`;
    if (outcome === 'timeout') line += `; the next page was still loading after ${ACTION_LOAD_TIMEOUT_MS / 1000} s`;
    for (const opened of watch?.openedTabs ?? []) {
      // A tab the caller's own action opened is the caller's.
      ctx.callerTabs.opened(opened, false);
      line += `; it opened a new tab (id ${opened}): switch_tab to work there`;
    }
    const current = (await ctx.browser.getTab(tab.id)) ?? tab;
    if (outcome === 'loaded') await settlePage(ctx, tab.id);
    ctx.acted?.();
    const reading = performance.now();
    try {
      await reportPage(ctx, response, current, line, before);
    } catch (error) {
      // The page started navigating only after the command answered: follow it, then read once more.
      if (ctx.signal.aborted || !documentGone(error, watch)) throw error;
      await followNavigation(ctx, watch, true);
      await reportPage(ctx, response, (await ctx.browser.getTab(tab.id)) ?? current, line, before);
    }
    const timing: ActionTiming = { pageMs: Math.round(pageMs), reportMs: Math.round(performance.now() - reading) };
    if (reply?.settled?.workMs !== undefined) timing.workMs = reply.settled.workMs;
    if (reply?.settled?.settleMs !== undefined) timing.settleMs = reply.settled.settleMs;
    if (reply?.settled) timing.settleReason = reply.settled.reason;
    if (reply?.settled?.beats !== undefined) timing.settleBeats = reply.settled.beats;
    response.meta(TIMING_META, timing);
  } finally {
    ctx.signal.removeEventListener('abort', cancel);
    watch?.dispose();
  }
}

/** The page-side settle wait, cancelled in the page too when the call is aborted. Failures are ignored. */
async function settlePage(ctx: ToolContext, tabId: number): Promise<void> {
  const actionId = randomId();
  const page = ctx.page;
  const cancel = () => void page.run(tabId, { op: 'cancelWait', waitId: actionId }).catch(() => {});
  ctx.signal.addEventListener('abort', cancel, { once: true });
  try {
    await page
      .run(tabId, { op: 'settle', settle: AFTER_LOAD_SETTLE, actionId }, { signal: ctx.signal })
      .catch(() => {});
  } finally {
    ctx.signal.removeEventListener('abort', cancel);
  }
}

/** After navigate, history, reload or switching tabs: let the page settle, then show it whole. */
export async function reportNewPage(
  ctx: ToolContext,
  response: ResponseBuilder,
  tab: TabInfo,
  line: string,
  options: { settle?: boolean } = {},
): Promise<void> {
  try {
    await readNewPage(ctx, response, tab, line, options);
  } catch (error) {
    // A page that opens a dialog as it loads is the user's to answer; its page port says so at once.
    if (!(error instanceof DialogHeld) || ctx.signal.aborted) throw error;
    response.text(`${line}.`);
    response.text(heldUnreadText(error.kind));
  }
}

async function readNewPage(
  ctx: ToolContext,
  response: ResponseBuilder,
  tab: TabInfo,
  line: string,
  options: { settle?: boolean },
): Promise<void> {
  if (options.settle !== false) await settlePage(ctx, tab.id);
  try {
    await reportPage(ctx, response, tab, line, undefined);
  } catch (error) {
    // The new page sent itself on while it was read (a script at load): show where it went, once,
    // judged by the gates like any page; a second move is reported as it is.
    if (!(error instanceof PageCommandError) || !meansDocumentGone(error.code)) throw error;
    await settlePage(ctx, tab.id);
    const moved = await ctx.browser.getTab(tab.id);
    if (!moved) throw error;
    await reportPage(ctx, response, moved, line, undefined);
  }
}
