/**
 * Leaving a page (navigate, history, reload, close_tab): the page is asked first whether a
 * beforeunload handler would make the browser prompt, and the leave goes ahead only when the call
 * said to accept; then it is let through without the prompt, once.
 */
import type { DialogAnswer, DialogPort } from './port';
import { leaveRefusedText } from './texts';

/** What a leave needs of the call: the relays and the call's answer. */
export interface LeaveContext {
  readonly dialogs?: DialogPort;
  readonly dialog?: DialogAnswer;
}

/** How long the page may take to say whether leaving would prompt. */
export const LEAVE_CHECK_MS = 2_000;

async function withinLeaveCheck<T>(work: Promise<T>, fallback: T): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<T>((resolve) => (timer = setTimeout(() => resolve(fallback), LEAVE_CHECK_MS)));
  try {
    return await Promise.race([work.catch(() => fallback), late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Before the tab leaves its page: the refusal to return when a beforeunload handler would make
 * the browser ask and the call did not say to accept; undefined when the leave may go ahead (then,
 * if it would have asked, the next leave is let through without the prompt).
 */
export async function leaveRefusal(ctx: LeaveContext, tabId: number, verb: string): Promise<string | undefined> {
  const port = ctx.dialogs;
  if (!port) return undefined;
  const checked = await withinLeaveCheck(port.leave(tabId, 'check'), []);
  if (!checked.some((frame) => frame.asks)) return undefined;
  if (ctx.dialog?.accept) {
    await withinLeaveCheck(port.leave(tabId, 'allow'), []);
    return undefined;
  }
  return leaveRefusedText(verb);
}

/** After a leave: whatever the outcome, the page's own prompt is back for the user's next leave. */
export async function restoreLeavePrompt(ctx: LeaveContext, tabId: number): Promise<void> {
  if (ctx.dialog?.accept && ctx.dialogs) await withinLeaveCheck(ctx.dialogs.leave(tabId, 'forbid'), []);
}
