/**
 * Waits for text or an element (by CSS selector, or by role and name as a snapshot prints it) to
 * appear (or, with `gone`, disappear) in any frame of the tab.
 * Each frame's agent watches its own document (mutations, paced by animation frames); the first
 * frame to see the text ends the wait everywhere. Bounded by `timeout`, cancelled with the call.
 * Answers like an action: what changed since the last snapshot, or the page if it is a new one.
 */
import { z } from 'zod';
import { PageErrorCode } from '../../page/error-codes';
import { reportPage } from '../action-flow';
import { PageCommandError } from '../browser-port';
import { formatSnapshot } from '../snapshot-format';
import { defineTool, type PageToolContext } from '../tool';
import { isRefusal } from '../page-guard';
import { originOf } from './page-read';
import { TargetArg, targetText } from '../target-args';

export const DEFAULT_WAIT_MS = 5_000;
export const MAX_WAIT_MS = 60_000;

function waitId(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, '0')).join('');
}

async function frameIdsToWatch(ctx: PageToolContext): Promise<number[]> {
  const children = await ctx.page.readableFrames(ctx.tab.id);
  return [0, ...children.map((frame) => frame.frameId)];
}

/** True when the condition held: any frame for appearing, every frame for disappearing. */
async function waitInFrames(
  ctx: PageToolContext,
  condition: { text?: string; selector?: string; target?: { role?: string; name: string }; gone: boolean },
  timeoutMs: number,
): Promise<boolean> {
  const tabId = ctx.tab.id;
  const page = ctx.page;
  const id = waitId();
  const frameIds = await frameIdsToWatch(ctx);
  const command = { op: 'waitFor' as const, waitId: id, timeoutMs, ...condition };
  const cancel = () => {
    for (const frameId of frameIds) void page.run(tabId, { op: 'cancelWait', waitId: id }, { frameId }).catch(() => {});
  };
  ctx.signal.addEventListener('abort', cancel, { once: true });
  try {
    const waits = frameIds.map((frameId) =>
      page.run(tabId, command, { frameId, signal: ctx.signal }).then(
        (reply) => reply.met,
        (error: unknown) => {
          // The top frame must answer; a child frame that went away simply does not hold the text.
          if (frameId === 0) throw error;
          return condition.gone;
        },
      ),
    );
    if (condition.gone) return (await Promise.all(waits)).every(Boolean);
    const first = await new Promise<boolean>((resolve, reject) => {
      let pending = waits.length;
      for (const wait of waits) wait.then((met) => (met ? resolve(true) : --pending === 0 && resolve(false)), reject);
    });
    if (first) cancel();
    return first;
  } finally {
    ctx.signal.removeEventListener('abort', cancel);
  }
}

export const waitFor = defineTool({
  name: 'wait_for',
  title: 'Wait for text or element',
  description:
    'Wait until some text or an element appears on the page — or disappears, with gone — in any frame, then ' +
    'return the page. Name the element by `target`, its role and name as a snapshot would print them (e.g. ' +
    '{ "role": "button", "name": "Save" }), or by CSS selector. Use after an action whose effect takes time ' +
    '(loading, saving).',
  effect: 'read',
  scope: 'page',
  input: z.object({
    text: z.string().min(1).optional().describe('Text to wait for (case-insensitive, visible text)'),
    target: TargetArg.omit({ nth: true })
      .optional()
      .describe('An element to wait for as a snapshot would print it, { role, name }; hidden ones are not printed'),
    selector: z.string().min(1).optional().describe('CSS selector of an element to wait for (visible)'),
    gone: z.boolean().default(false).describe('Wait for the text or element to disappear instead'),
    timeout: z
      .number()
      .int()
      .min(1)
      .max(MAX_WAIT_MS)
      .default(DEFAULT_WAIT_MS)
      .describe('Longest wait in milliseconds (default 5000, at most 60000)'),
  }),
  async handle(args, ctx, response) {
    const given = [args.text, args.target, args.selector].filter((value) => value !== undefined);
    if (given.length !== 1) {
      response.error('Pass exactly one of `text`, `target` or `selector` to wait for.');
      return;
    }
    const what =
      args.text !== undefined
        ? `text "${args.text}"`
        : args.target !== undefined
          ? `an element printed as ${targetText(args.target)}`
          : `an element matching ${args.selector}`;
    const started = Date.now();
    const before = ctx.snapshots.last(ctx.tab.id);
    const condition = {
      gone: args.gone,
      ...(args.text !== undefined
        ? { text: args.text }
        : args.target !== undefined
          ? { target: args.target }
          : { selector: args.selector }),
    };
    let met: boolean;
    try {
      met = await waitInFrames(ctx, condition, args.timeout);
    } catch (error) {
      if (error instanceof PageCommandError && (error.code === PageErrorCode.BadSelector || isRefusal(error))) {
        response.error(error.message);
        return;
      }
      throw error;
    }
    const waited = Date.now() - started;
    const outcome = args.gone ? 'disappeared' : 'appeared';
    const tab = (await ctx.browser.getTab(ctx.tab.id)) ?? ctx.tab;
    if (met) {
      // What changed while waiting, as a diff against the snapshot taken before (or the page, if it is new).
      await reportPage(ctx, response, tab, `Waited ${waited} ms: ${what} ${outcome}.`, before);
      return;
    }
    const timedOut = `Timed out after ${args.timeout} ms: ${what} has not ${outcome}.`;
    try {
      const taken = await ctx.readPage(tab);
      response.error(`${timedOut} The page now:`);
      const origin = originOf(taken.url);
      response.pageText(origin, formatSnapshot(taken, undefined, origin));
    } catch (error) {
      if (!isRefusal(error)) throw error;
      response.error(`${timedOut} ${error.message}`);
    }
  },
});
