/**
 * Runs page-agent commands in a tab's documents through `chrome.scripting`. The agent bundle is
 * injected on first use in each document and stays there (isolated world) between calls, with the
 * page's request signals beside it in the page's own world (`page/main-world/request-signals.ts`;
 * on allowed sites they are already there from document_start, and installing twice is a no-op). A
 * command given a document id runs in that document only (Chrome ≥ 106), never in whatever the
 * frame holds by then.
 */
import {
  PageCommandError,
  tabGone,
  type FrameInfo,
  type PageAnswer,
  type PageTransport,
  type SendOptions,
} from '../mcp-server/browser-port';
import { FRAME_GONE_TEXT, PageErrorCode, pageErrorCodeOf } from '../page/error-codes';
import { PageEnvelope, replySchema, type PageCommand, type PageReply } from '../page/protocol';
import { watchFilePicker } from '../page/main-world/file-picker-watch';
import { REQUEST_SIGNALS } from '../page/main-world/request-signals';
import { TICK_MS } from '../page/clock';
import { tickAgent } from './page-tick';
import { raceAbort } from '../shared/race-abort';

export const PAGE_AGENT_FILE = 'page/agent.js';

/**
 * An agent's answer, checked: the value and where it was produced, or the error it meant for the
 * model. Errors carry no page content the gates have not seen, so they need no provenance check.
 */
export function readEnvelope<C extends PageCommand>(command: C, result: unknown): PageAnswer<C> {
  const envelope = PageEnvelope.safeParse(result);
  if (!envelope.success)
    throw new PageCommandError('The page agent gave no usable answer (the page may have navigated).', 'bad-reply');
  if (!envelope.data.ok) throw new PageCommandError(envelope.data.error, pageErrorCodeOf(envelope.data.code));
  const reply = replySchema(command).safeParse(envelope.data.value);
  if (!reply.success) throw new PageCommandError('The page agent answered in an unexpected shape.', 'bad-reply');
  return { value: reply.data as PageReply<C>, url: envelope.data.url, documentId: envelope.data.documentId };
}

/**
 * Ticks the page's clock (`page/clock.ts`) until `running` settles: a tab that is not in front gets
 * no animation frames and late timers, so the command's waits keep time by these. A tick is sent
 * only once the one before it arrived, so a busy page is never queued up with them.
 */
async function tickWhile(target: chrome.scripting.InjectionTarget, running: Promise<unknown>): Promise<void> {
  let done = false;
  void running.then(
    () => (done = true),
    () => (done = true),
  );
  while (!done) {
    await new Promise((resolve) => setTimeout(resolve, TICK_MS));
    if (done) return;
    await chrome.scripting.executeScript({ target, func: tickAgent }).catch(() => undefined);
  }
}

const isMissing = (result: unknown) => (result as { missing?: boolean } | undefined)?.missing === true;

/** Runs in the page; must not close over anything. */
function invokeAgent(command: unknown): unknown {
  const agent = (globalThis as unknown as Record<string, { handle(c: unknown): unknown } | undefined>)
    .__tabwrightPageAgent;
  return agent ? agent.handle(command) : { missing: true };
}

/** Chrome's scripting errors, said in words the model (and the user) can act on. */
export function explainScriptingError(error: unknown): PageCommandError {
  const message = String((error as Error)?.message ?? error);
  if (/Cannot access a chrome|chrome:\/\/|chrome-extension:\/\/|The extensions gallery/i.test(message)) {
    return new PageCommandError(
      'This is a browser page, not a web page; Tabwright works only in http(s) pages.',
      'not-scriptable',
    );
  }
  if (/Cannot access contents of|permission to access/i.test(message)) {
    return new PageCommandError(
      'Tabwright has no access to this page. Ask the user to allow the site in Tabwright settings.',
      'no-access',
    );
  }
  if (/No tab with id/i.test(message)) return tabGone();
  if (/error page/i.test(message)) return new PageCommandError('The tab is showing an error page.', 'error-page');
  if (
    /No frame with id|Frame with ID .* was removed|frame was removed|No document with id|document .*not found/i.test(
      message,
    )
  ) {
    return new PageCommandError(FRAME_GONE_TEXT, PageErrorCode.FrameGone);
  }
  return new PageCommandError(`The page could not run the command: ${message}`, 'scripting');
}

export class ChromePageTransport implements PageTransport {
  async send<C extends PageCommand>(tabId: number, command: C, options: SendOptions): Promise<PageAnswer<C>> {
    const target = options.documentId
      ? { tabId, documentIds: [options.documentId] }
      : { tabId, frameIds: [options.frameId] };
    const call = async () => {
      // A call that has ended sends nothing more: a command sent now would still run in the page.
      options.signal?.throwIfAborted();
      const [injection] = await chrome.scripting.executeScript({ target, func: invokeAgent, args: [command] });
      return injection?.result;
    };
    const ticked = (running: Promise<unknown>) => {
      void tickWhile(target, running);
      return running;
    };
    let result: unknown;
    try {
      options.signal?.throwIfAborted();
      if (command.op === 'upload') {
        // Before the agent clicks anything: a "Browse" control may open the picker of the page's own world.
        const watch = chrome.scripting.executeScript({
          target,
          world: 'MAIN',
          func: watchFilePicker,
          args: [command.pickerEvent],
        });
        await raceAbort(watch, options.signal);
      }
      result = await raceAbort(ticked(call()), options.signal);
      if (isMissing(result)) {
        // A document older than the registered main-world script gets its request signals now.
        await raceAbort(chrome.scripting.executeScript({ target, world: 'MAIN', ...REQUEST_SIGNALS }), options.signal);
        await raceAbort(chrome.scripting.executeScript({ target, files: [PAGE_AGENT_FILE] }), options.signal);
        result = await raceAbort(ticked(call()), options.signal);
      }
    } catch (error) {
      if (options.signal?.aborted) throw error;
      throw explainScriptingError(error);
    }
    return readEnvelope(command, result);
  }

  async frames(tabId: number): Promise<FrameInfo[]> {
    const frames = (await chrome.webNavigation.getAllFrames({ tabId })) ?? [];
    return frames.map((frame) => ({
      frameId: frame.frameId,
      parentFrameId: frame.parentFrameId,
      url: frame.url,
      ...(frame.documentId ? { documentId: frame.documentId } : {}),
    }));
  }
}
