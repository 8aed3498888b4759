/**
 * One call's dealings with JavaScript dialogs: the actions it arms (their answers are collected
 * and reported once the call has written its answer, and withdrawn however it ends), the user's
 * own dialogs that hold a tab it reaches, and leaving a page that asks first. The call session
 * owns one; tools see none of it — only a page port that arms an action when asked, and `leave`.
 */
import { raceAbort } from '../../shared/race-abort';
import type { FrameInfo, PagePort } from '../browser-port';
import type { ResponseBuilder } from '../response';
import { armDialogs, type ArmedDialogs } from './arming';
import { DialogHeld, type DialogHolds } from './holds';
import { leaveRefusal, restoreLeavePrompt } from './leave';
import type { DialogAnswer, DialogPort } from './port';
import { heldText } from './texts';

export interface CallDialogsOptions {
  /** The tabs' relays, when the browser has them. */
  port?: DialogPort | undefined;
  /** Tabs the user's own dialogs hold, when the panel follows them. */
  holds?: DialogHolds | undefined;
  /** The call's `dialog` argument, for a write the user confirmed. */
  answer?: DialogAnswer | undefined;
  page: { frames(tabId: number): Promise<FrameInfo[]> };
  decide(url: string): Promise<string | undefined>;
  /** What the call's work listens to. */
  signal(): AbortSignal;
}

/** A leave under way: `refusal` when it may not happen; `signal` ends it if the user's dialog holds the tab. */
export interface Leaving {
  refusal?: string;
  signal: AbortSignal;
  /** The page's own prompt is back for the user's next leave, and the watch ends. */
  done(): Promise<void>;
}

export class CallDialogs {
  readonly #armed: ArmedDialogs[] = [];

  constructor(private readonly options: CallDialogsOptions) {}

  /** Arms the tab's relays for an action in `frameId`: what the action command carries (`dialogs`). */
  async arm(tabId: number, frameId: number): Promise<ArmedDialogs['arming'] | undefined> {
    const { port, answer, page } = this.options;
    const armed = await armDialogs(
      {
        page,
        checkDestination: this.options.decide,
        ...(port ? { dialogs: port } : {}),
        ...(answer ? { dialog: answer } : {}),
      },
      tabId,
      frameId,
    );
    if (!armed) return undefined;
    this.#armed.push(armed);
    return armed.arming;
  }

  /** Throws `DialogHeld` when one of the user's dialogs holds the tab (a check only when one was reported). */
  async assertFree(tabId: number): Promise<void> {
    const kind = await this.options.holds?.held(tabId);
    if (kind) throw new DialogHeld(kind);
  }

  /** A signal that aborts with `DialogHeld` once the user's dialog holds `tabId`; `dispose` when done. */
  watch(tabId: number): { signal: AbortSignal; dispose(): void } | undefined {
    return this.options.holds?.watch(tabId);
  }

  /** Before a page leaves `tabId` (navigate, history, reload, close): asks, and refuses what the call did not accept. */
  async leave(tabId: number, verb: string): Promise<Leaving> {
    const { holds } = this.options;
    const signal = this.options.signal();
    const held = await holds?.held(tabId);
    // The leave check waits on the page, and leaving would throw away the user's dialog.
    if (held) return { refusal: heldText(held), signal, done: async () => undefined };
    const context = {
      ...(this.options.port ? { dialogs: this.options.port } : {}),
      ...(this.options.answer ? { dialog: this.options.answer } : {}),
    };
    const refusal = await leaveRefusal(context, tabId, verb);
    if (refusal) return { refusal, signal, done: async () => undefined };
    // A page that asks its user while it loads never finishes loading until they answer.
    const watch = holds?.watch(tabId);
    return {
      signal: watch ? AbortSignal.any([signal, watch.signal]) : signal,
      done: async () => {
        watch?.dispose();
        await restoreLeavePrompt(context, tabId);
      },
    };
  }

  /** What the call's actions' dialogs were, into the answer; every arming is withdrawn. */
  async report(response: ResponseBuilder): Promise<void> {
    for (const armed of this.#armed.splice(0)) await armed.report(response);
  }

  /** Withdraws every arming without reporting (the call failed). */
  async disarm(): Promise<void> {
    for (const armed of this.#armed.splice(0)) await armed.disarm();
  }
}

/** A page port that arms an action's dialogs when asked (`arm`) and fails fast on a tab the user's dialog holds. */
export function dialogAwarePage(page: PagePort, dialogs: CallDialogs): PagePort {
  return {
    frames: (tabId) => page.frames(tabId),
    readableFrames: (tabId) => page.readableFrames(tabId),
    async run(tabId, command, options = {}) {
      await dialogs.assertFree(tabId);
      const frameId = options.frameId;
      const arming = options.arm ? await dialogs.arm(tabId, frameId ?? 0) : undefined;
      const sent = arming ? { ...command, dialogs: arming } : command;
      const watch = dialogs.watch(tabId);
      if (!watch) return page.run(tabId, sent, options);
      try {
        const signal = options.signal ? AbortSignal.any([options.signal, watch.signal]) : watch.signal;
        return await raceAbort(page.run(tabId, sent, { ...options, signal }), watch.signal);
      } finally {
        watch.dispose();
      }
    },
  };
}
