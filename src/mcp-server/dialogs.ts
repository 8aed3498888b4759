/**
 * JavaScript dialogs around agent actions, panel side. Before an action the tab's dialog relays
 * are armed (see src/page/dialogs/): the frame the action runs in by the action command itself,
 * with the call's `dialog` answer if the gates allow that frame, every other frame beforehand to
 * dismiss. Afterwards what the dialogs said is collected and reported: quoted as page content only
 * when the frame that opened it passes the same decision as every read. Leaving a page (navigate, history, reload, close_tab) first asks the
 * page whether a beforeunload handler would prompt, and lets the leave pass only when told to accept.
 */
import {
  DIALOG_TEXT_LIMIT,
  MAX_DIALOG_RECORDS,
  type DialogAnswer,
  type DialogKind,
  type DialogRecord,
} from '../page/dialogs/channel';
import { clip, neutraliseText } from '../shared/text/line';
import { DialogAnswer as DialogAnswerSchema } from '../page/protocol';
import { decidingUrl } from './page-guard';
import { originOf } from './gates/origin';
import type { FrameInfo } from './browser-port';
import type { ResponseBuilder } from './response';
import type { ToolContext } from './tool';

export type { DialogAnswer, DialogKind, DialogRecord };

export interface FrameDialogs {
  frameId: number;
  records: DialogRecord[];
}

export type LeaveMode = 'check' | 'allow' | 'forbid';

/** The tab's dialog relays, reached without the page agent (the platform implements it over chrome.scripting). */
export interface DialogPort {
  /**
   * Claims an arming's token for the call before anything is armed with it; the returned function
   * releases it, and every relay armed with it disarms then (see arming-claims.ts).
   */
  claim?(token: string): () => void;
  /** Arms every frame of the tab to dismiss. */
  arm(tabId: number, token: string): Promise<void>;
  /** The dialogs each frame saw since `arm`, disarming them. */
  collect(tabId: number, token: string): Promise<FrameDialogs[]>;
  /** For each frame with a hook, whether leaving would prompt (`check`), or that it was told. */
  leave(tabId: number, mode: LeaveMode): Promise<{ frameId: number; asks: boolean }[]>;
}

/** An answer given as a call argument, or undefined for anything else. */
export function dialogAnswerOf(value: unknown): DialogAnswer | undefined {
  const answer = DialogAnswerSchema.safeParse(value);
  return answer.success ? answer.data : undefined;
}

/** The answer as the user reads it on the confirmation card and in the result. */
export function describeAnswer(answer: DialogAnswer): string {
  if (!answer.accept) return 'dismiss it (Cancel)';
  return answer.promptText !== undefined ? `accept it, answering "${answer.promptText}"` : 'accept it (OK)';
}

function describeGiven(answer: DialogAnswer): string {
  if (!answer.accept) return 'dismissed (Cancel)';
  return answer.promptText !== undefined ? `accepted, answering "${answer.promptText}"` : 'accepted (OK)';
}

function randomToken(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface ArmedDialogs {
  /** What the action command carries to arm its own frame (`dialogs` of every page action). */
  arming: { token: string; answer?: DialogAnswer };
  /** Writes what the action's dialogs were into the result; safe to call once. */
  report(response: ResponseBuilder): Promise<void>;
  /** Disarms without reporting (the action failed). */
  disarm(): Promise<void>;
}

/**
 * Arms the tab's relays for one action in `frameId`: the other frames here, to dismiss; the
 * action's own frame through the command (`arming`), so a tab of one frame needs no extra trip to
 * the page. The answer goes only to a document the gates allow; elsewhere every dialog is dismissed.
 */
export async function armDialogs(ctx: ToolContext, tabId: number, frameId: number): Promise<ArmedDialogs | undefined> {
  const port = ctx.dialogs;
  if (!port) return undefined;
  const token = randomToken();
  // Claimed first: a relay armed with a token no call holds disarms as soon as it is armed.
  const release = port.claim?.(token) ?? (() => undefined);
  try {
    const frames = await ctx.page.frames(tabId).catch(() => [] as FrameInfo[]);
    const frame = frames.find((f) => f.frameId === frameId);
    const answered = !!ctx.dialog && !!frame && (await ctx.checkDestination(decidingUrl(frame, frames))) === undefined;
    // The command arms its own frame after this, over the dismissal, with the same token.
    const alone = frames.length === 1 && frame !== undefined;
    if (!alone) await port.arm(tabId, token).catch(() => undefined);
    let done = false;
    const collect = async () => {
      if (done) return [];
      done = true;
      try {
        return await port.collect(tabId, token).catch(() => [] as FrameDialogs[]);
      } finally {
        release();
      }
    };
    return {
      arming: answered ? { token, answer: ctx.dialog! } : { token },
      async report(response) {
        const seen = await collect();
        if (!seen.some((f) => f.records.length)) return;
        await reportDialogs(ctx, tabId, seen, response);
      },
      async disarm() {
        await collect();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

const KIND_NAME: Record<DialogKind, string> = { alert: 'an alert', confirm: 'a confirm dialog', prompt: 'a prompt' };

async function reportDialogs(
  ctx: ToolContext,
  tabId: number,
  seen: FrameDialogs[],
  response: ResponseBuilder,
): Promise<void> {
  const frames = await ctx.page.frames(tabId).catch(() => [] as FrameInfo[]);
  let dismissedAnswerable = false;
  let reported = 0;
  let skipped = 0;
  for (const { frameId, records } of seen) {
    const frame = frames.find((f) => f.frameId === frameId);
    for (const record of records) {
      // Each relay records a few; a page with many frames could still send many in all.
      if (reported >= MAX_DIALOG_RECORDS) {
        skipped++;
        continue;
      }
      reported++;
      const at: FrameInfo = { frameId, parentFrameId: frame?.parentFrameId ?? -1, url: record.url };
      const deciding = decidingUrl(at, frames);
      const readable = (await ctx.checkDestination(deciding)) === undefined;
      const what = KIND_NAME[record.kind];
      const outcome = record.answer
        ? `it was answered as the call said: ${describeGiven(record.answer)}`
        : record.attributed === false
          ? `it did not come from the action's own events (it came from a timer, another frame or script, or the person), so it was ${record.kind === 'alert' ? 'closed' : 'dismissed (Cancel)'} and no answer the call gave went to it`
          : record.kind === 'alert'
            ? 'it was closed'
            : 'it was dismissed (Cancel), because the call gave no `dialog` answer';
      if (record.kind !== 'alert' && !record.answer && record.attributed !== false) dismissedAnswerable = true;
      if (!readable) {
        response.text(
          `A frame Tabwright may not read opened ${what} during the action; ${outcome}. Its text is not shown.`,
        );
        continue;
      }
      response.text(`The page opened ${what} during the action; ${outcome}. It said:`);
      // One line, like any name the page gives: its text cannot pose as lines of the result.
      response.pageText(originOf(deciding), clip(neutraliseText(record.message), DIALOG_TEXT_LIMIT));
    }
  }
  if (skipped) response.text(`The page opened ${skipped} more dialogs during the action; all were dismissed.`);
  if (dismissedAnswerable) {
    response.text(
      'To answer it, repeat the action with `dialog`: { "accept": true } for OK, { "accept": false } for Cancel, ' +
        'and "promptText" for what to type into a prompt.',
    );
  }
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
export async function leaveRefusal(ctx: ToolContext, tabId: number, verb: string): Promise<string | undefined> {
  const port = ctx.dialogs;
  if (!port) return undefined;
  const checked = await withinLeaveCheck(port.leave(tabId, 'check'), []);
  if (!checked.some((frame) => frame.asks)) return undefined;
  if (ctx.dialog?.accept) {
    await withinLeaveCheck(port.leave(tabId, 'allow'), []);
    return undefined;
  }
  return (
    `The page asks before leaving ("Leave site? Changes you made may not be saved."), so nothing was done: ` +
    `the tab did not ${verb} and the page is as it was. If leaving is what the user wants, and unsaved ` +
    'changes on the page may be lost, repeat the call with `dialog`: { "accept": true }.'
  );
}

/** After a leave: whatever the outcome, the page's own prompt is back for the user's next leave. */
export async function restoreLeavePrompt(ctx: ToolContext, tabId: number): Promise<void> {
  if (ctx.dialog?.accept && ctx.dialogs) await withinLeaveCheck(ctx.dialogs.leave(tabId, 'forbid'), []);
}
