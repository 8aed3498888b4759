/**
 * JavaScript dialogs around agent actions, panel side. Before an action the tab's dialog relays
 * are armed (see src/page/dialogs/): the frame the action runs in by the action command itself,
 * with the call's `dialog` answer if the gates allow that frame, every other frame beforehand to
 * dismiss. Afterwards what the dialogs said is collected and reported: quoted as page content only
 * when the frame that opened it passes the same decision as every read.
 */
import { DIALOG_TEXT_LIMIT, MAX_DIALOG_RECORDS } from '../../page/dialogs/channel';
import { DialogAnswer as DialogAnswerSchema } from '../../page/protocol';
import { clip, neutraliseText } from '../../shared/text/line';
import type { FrameInfo, PagePort } from '../browser-port';
import { originOf } from '../gates/origin';
import { decidingUrl } from '../page-guard';
import type { ResponseBuilder } from '../response';
import type { DialogAnswer, DialogPort, FrameDialogs } from './port';
import { KIND_NAME, REPEAT_WITH_ANSWER, dialogOutcome } from './texts';

/** What arming needs of the call: the tab's frames, the gates' decision, the relays and the call's answer. */
export interface ArmingContext {
  readonly page: Pick<PagePort, 'frames'>;
  checkDestination(url: string): Promise<string | undefined>;
  readonly dialogs?: DialogPort;
  readonly dialog?: DialogAnswer;
}

/** An answer given as a call argument, or undefined for anything else. */
export function dialogAnswerOf(value: unknown): DialogAnswer | undefined {
  const answer = DialogAnswerSchema.safeParse(value);
  return answer.success ? answer.data : undefined;
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
export async function armDialogs(
  ctx: ArmingContext,
  tabId: number,
  frameId: number,
): Promise<ArmedDialogs | undefined> {
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

async function reportDialogs(
  ctx: ArmingContext,
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
      const outcome = dialogOutcome(record.kind, record.answer, record.attributed);
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
  if (dismissedAnswerable) response.text(REPEAT_WITH_ANSWER);
}
