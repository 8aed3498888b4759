/**
 * The only way tools reach a page. Before a command is sent, the frame's document is looked up
 * and its URL put to the gates' decision; the command is then pinned to that document (Chrome's
 * document id), so a navigation in between makes it fail instead of running elsewhere. The reply
 * carries the URL it was produced at — a route may have changed meanwhile — and is withheld unless
 * that URL passes the same decision. about:blank and srcdoc frames hold the origin of the document
 * that made them, so they take the verdict of their nearest ancestor with a real URL.
 */
import { FRAME_GONE_TEXT, PageErrorCode } from '../page/error-codes';
import { parseRef } from '../page/refs';
import type { PageCommand, PageReply } from '../page/protocol';
import { FAILURE_TEXT } from './tool-failure';
import {
  PageCommandError,
  tabGone,
  type FrameInfo,
  type PageAnswer,
  type PagePort,
  type PageTransport,
  type RunOptions,
} from './browser-port';

/** The gates' decision for a URL: the refusal text, or undefined when it may be read. */
export type ReadDecision = (url: string) => Promise<string | undefined>;

/** Nothing was sent: the document the command was meant for is one the gates refuse. */
export const REFUSED_DOCUMENT = PageErrorCode.Refused;
/** The command ran, but its document moved to a URL the gates refuse before it answered: the reply is withheld. */
export const REFUSED_REPLY = PageErrorCode.MovedRefused;

/**
 * The frame a command belongs in when the caller did not say: a ref made in a child frame carries
 * that frame's id (`f7e12`), so the command goes where the element is.
 */
export function frameForCommand(command: PageCommand): number {
  const target = (command as { target?: { ref?: unknown } }).target;
  if (target && typeof target.ref === 'string') return parseRef(target.ref)?.frameId ?? 0;
  return 0;
}

/** Frames whose URL says nothing about their origin: they inherit it from their creator. */
const inheritsOrigin = (url: string) => url === '' || /^about:/i.test(url);

/** The URL that decides for `frame`: its own, or for an about:blank/srcdoc frame its nearest real ancestor's. */
export function decidingUrl(frame: FrameInfo, frames: readonly FrameInfo[]): string {
  const byId = new Map(frames.map((f) => [f.frameId, f]));
  let current: FrameInfo | undefined = frame;
  const seen = new Set<number>();
  while (current && inheritsOrigin(current.url) && !seen.has(current.frameId)) {
    seen.add(current.frameId);
    current = byId.get(current.parentFrameId);
  }
  return current && !inheritsOrigin(current.url) ? current.url : frame.url;
}

/** A refusal of the guard, with the address it judged and the gates' own words, for callers that say it their way. */
export class PageRefusal extends PageCommandError {
  constructor(
    message: string,
    code: typeof REFUSED_DOCUMENT | typeof REFUSED_REPLY,
    readonly url: string,
    readonly refusal: string,
  ) {
    super(message, code);
  }
}

function refusedText(refusal: string): string {
  return `That part of the tab is on a page Tabwright may not read, so nothing was read or done there. ${refusal}`;
}

function withheldText(refusal: string): string {
  return `The page moved to an address Tabwright may not read before it answered, so its answer is not shown. ${refusal}`;
}

export class PageGuard implements PagePort {
  /** Verdicts by exact URL, never by document: a route change within a document is decided again. */
  readonly #verdicts = new Map<string, Promise<string | undefined>>();
  readonly #frameLists = new Map<number, Promise<FrameInfo[]>>();
  /** What every command waits for before it is sent (what the call shows being in place). */
  #ready: Promise<void> | undefined;

  /**
   * `keepFrames`: a tab's frames are looked up once until the page may have changed them (see
   * `#frames`), for a caller that says when it moved a tab itself (`forgetFrames`). Without it
   * every command looks them up.
   */
  constructor(
    private readonly transport: PageTransport,
    private readonly decide: ReadDecision,
    ready?: Promise<void>,
    private readonly keepFrames = false,
  ) {
    this.#ready = ready;
  }

  /** Commands from now on wait for `ready` before they are sent. */
  waitFor(ready: Promise<void> | undefined): void {
    this.#ready = ready;
  }

  /** The decision for a URL, asked once per URL for the life of this guard (one tool call). */
  verdict(url: string): Promise<string | undefined> {
    let verdict = this.#verdicts.get(url);
    if (!verdict) {
      verdict = this.decide(url);
      this.#verdicts.set(url, verdict);
    }
    return verdict;
  }

  /** A verdict the gates already reached for `url` in this call. */
  seed(url: string, refusal: string | undefined): void {
    this.#verdicts.set(url, Promise.resolve(refusal));
  }

  /** Every verdict is asked again (the settings may have changed while the user decided). */
  forget(): void {
    this.#verdicts.clear();
  }

  /**
   * Each tab's frames, looked up once until the page may have changed them: an action was sent, a
   * command failed, or the call moved the tab (`forgetFrames`). A page that changed them on its own
   * meanwhile makes the next command fail on the document it was pinned to, never run elsewhere.
   */
  #frames(tabId: number): Promise<FrameInfo[]> {
    let frames = this.keepFrames ? this.#frameLists.get(tabId) : undefined;
    if (!frames) {
      frames = this.transport.frames(tabId).catch(() => {
        this.#frameLists.delete(tabId);
        throw tabGone();
      });
      if (this.keepFrames) this.#frameLists.set(tabId, frames);
    }
    return frames;
  }

  /** The tabs' frames are looked up afresh (the call navigated, reloaded or closed a tab). */
  forgetFrames(): void {
    this.#frameLists.clear();
  }

  frames(tabId: number): Promise<FrameInfo[]> {
    return this.#frames(tabId);
  }

  async readableFrames(tabId: number): Promise<FrameInfo[]> {
    const frames = await this.#frames(tabId).catch(() => [] as FrameInfo[]);
    const children = frames.filter((frame) => frame.frameId !== 0);
    const verdicts = await Promise.all(children.map((frame) => this.verdict(decidingUrl(frame, frames))));
    return children.filter((_, i) => verdicts[i] === undefined);
  }

  async run<C extends PageCommand>(tabId: number, command: C, options: RunOptions = {}): Promise<PageReply<C>> {
    return (await this.answer(tabId, command, options)).value;
  }

  /** As `run`, with the URL the reply was judged by (the document's own, or its deciding ancestor's). */
  async answer<C extends PageCommand>(tabId: number, command: C, options: RunOptions = {}): Promise<PageAnswer<C>> {
    // A command asked for before what the call shows was set up (showing it, say) does not wait for it.
    const ready = this.#ready;
    const frameId = options.frameId ?? frameForCommand(command);
    const frames = await this.#frames(tabId);
    const frame = frames.find((f) => f.frameId === frameId);
    if (!frame) {
      throw new PageCommandError(frameId === 0 ? FAILURE_TEXT.noPage : FRAME_GONE_TEXT, PageErrorCode.FrameGone);
    }
    const deciding = decidingUrl(frame, frames);
    const refusal = await this.verdict(deciding);
    if (refusal) throw new PageRefusal(refusedText(refusal), REFUSED_DOCUMENT, deciding, refusal);
    await ready;
    let answer: PageAnswer<C>;
    try {
      answer = await this.transport.send(tabId, command, {
        frameId,
        ...(frame.documentId ? { documentId: frame.documentId } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      });
    } catch (error) {
      this.#frameLists.delete(tabId);
      throw error;
    } finally {
      // An action may add, remove or move frames.
      if (options.arm) this.#frameLists.delete(tabId);
    }
    // Same document, perhaps a new URL (history.pushState): the reply is judged by where it was made.
    const replyUrl = inheritsOrigin(answer.url) ? deciding : answer.url;
    const late = replyUrl === deciding ? undefined : await this.verdict(replyUrl);
    if (late) throw new PageRefusal(withheldText(late), REFUSED_REPLY, replyUrl, late);
    return { ...answer, url: replyUrl };
  }
}

/** Whether an error is one of the guard's refusals (nothing read, or a reply withheld). */
export function isRefusal(error: unknown): error is PageCommandError {
  return error instanceof PageCommandError && (error.code === REFUSED_DOCUMENT || error.code === REFUSED_REPLY);
}
