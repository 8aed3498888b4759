/**
 * After an action the page needs a moment to show its effect. The wait adapts to what the page
 * does: once the DOM has changed, it ends when two beats of Tabwright's clock (`../clock.ts`, about
 * a frame each) have passed without another change since the action ended and every request the
 * action set off has finished — or one beat, when the page can be asked about the work it set for
 * soon (a short timer, an animation frame, a port message: main-world/timer-watch.ts) and has none,
 * so nothing is left to change it before a second beat would end. When nothing changed at all, it
 * waits a little longer (`idleMs`) in case the change is on its way by a timer — unless the page
 * vouches that nothing the action set is due within that time, when its beats do. It ends at once
 * when the document starts navigating away, and never later than the cap. Same-document
 * navigations that a router intercepts, regions the page marks `aria-busy`, and short animations
 * the action set off (settle-animations.ts) are waited for until they finish. No animation frame
 * or page timer paces it, so it takes as long in a tab that is not in front as in the tab in front.
 * Requests are seen through the page's own request signals (see `main-world/request-signals.ts`).
 */
import { isAgentOutline } from '../outline';
import { BEAT_MS, pageClock } from '../clock';
import { RequestWatch } from './request-watch';
import { AnimationWatch } from './settle-animations';
import { ActionCancelled } from './timing';
import { LATER_MAX_MS } from '../main-world/timer-watch';

export interface SettleOptions {
  /** Beats of the clock without a DOM change (or a request ending) that count as settled. */
  quietBeats: number;
  /** Least quiet time after the last change, on top of the beats (for documents that just loaded). */
  quietMs: number;
  /** How long to wait when the action changed nothing at all. */
  idleMs: number;
  /** The hard cap on the whole wait. */
  capMs: number;
  /**
   * Whether the page's word that nothing is due (`Due`) may end an idle wait: only when everything
   * due was set under the watch, i.e. by an action (a page that is still loading set work before).
   */
  idleVouched?: boolean;
}

/**
 * What the page's own record says is still to run of what was set during the watch: work due
 * within a beat or two ('soon'), within the idle wait ('later'), or nothing.
 */
export type Due = 'soon' | 'later' | 'none';

export const DEFAULT_SETTLE: SettleOptions = { quietBeats: 2, quietMs: 0, idleMs: 300, capMs: 3_000 };

export type SettleReason = 'quiet' | 'idle' | 'cap' | 'navigation';

export interface Settled {
  reason: SettleReason;
  /** From the start of the watch (before the action) to the end of the wait. */
  ms: number;
  /** The action itself: from the start of the watch to the start of the wait. */
  workMs: number;
  /** The wait alone. */
  settleMs: number;
  mutations: number;
  /** The quiet beats it ended on, when it ended on quiet or on the page's word that nothing is due. */
  beats?: number;
}

interface NavigateEventLike extends Event {
  destination: { sameDocument: boolean; url: string };
  downloadRequest: string | null;
}

interface NavigationLike extends EventTarget {
  transition: { finished: Promise<unknown> } | null;
}

/** The agent outline coming, going or being relabelled: Tabwright's own drawing, not the page's. */
function isOutlineChange(record: MutationRecord): boolean {
  if (isAgentOutline(record.target)) return true;
  if (record.type !== 'childList') return false;
  const nodes = [...record.addedNodes, ...record.removedNodes];
  return nodes.length > 0 && nodes.every(isAgentOutline);
}

/** Watches the document from before the action: DOM changes, requests and navigations it starts. */
export class SettleWatch {
  readonly #observer: MutationObserver;
  readonly #requests: RequestWatch;
  readonly #animations: AnimationWatch;
  readonly #navigation: NavigationLike | undefined;
  readonly #started = performance.now();
  #lastChange = -1;
  #mutations = 0;
  #navigate: NavigateEventLike | undefined;
  #pagehide = false;

  /**
   * `due`: what the page has set (see the module comment), asked once a beat; without it every
   * quiet end takes the options' beats and every idle one its whole time.
   */
  constructor(
    private readonly document: Document,
    private readonly due?: () => Due,
  ) {
    this.#busyBefore = new Set(document.querySelectorAll('[aria-busy="true"]'));
    this.#observer = new MutationObserver((records) => {
      const changes = records.filter((record) => !isOutlineChange(record)).length;
      if (!changes) return;
      this.#mutations += changes;
      this.#lastChange = performance.now();
    });
    this.#observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    const view = document.defaultView;
    this.#requests = new RequestWatch(view);
    this.#animations = new AnimationWatch(document);
    this.#navigation = (view as (Window & { navigation?: NavigationLike }) | null)?.navigation;
    this.#navigation?.addEventListener('navigate', this.#onNavigate);
    view?.addEventListener('pagehide', this.#onPagehide);
  }

  readonly #onNavigate = (event: Event) => {
    const navigate = event as NavigateEventLike;
    if (navigate.downloadRequest === null || navigate.downloadRequest === undefined) this.#navigate = navigate;
  };

  /** Regions already busy before the action are the page's own business (some never stop). */
  readonly #busyBefore: ReadonlySet<Element>;

  #newlyBusy(): boolean {
    for (const element of this.document.querySelectorAll('[aria-busy="true"]')) {
      if (!this.#busyBefore.has(element)) return true;
    }
    return false;
  }

  readonly #onPagehide = () => {
    this.#pagehide = true;
  };

  /** A navigation that will replace this document has begun (not cancelled, not taken over by a router). */
  get leaving(): boolean {
    if (this.#pagehide) return true;
    const navigate = this.#navigate;
    if (!navigate || navigate.defaultPrevented || navigate.destination.sameDocument) return false;
    return !this.#navigation?.transition;
  }

  /** A same-document navigation a router intercepted and has not finished. */
  get routing(): Promise<unknown> | undefined {
    if (!this.#navigate || this.#navigate.defaultPrevented) return undefined;
    return this.#navigation?.transition?.finished;
  }

  dispose(): void {
    this.#observer.disconnect();
    this.#requests.dispose();
    this.#navigation?.removeEventListener('navigate', this.#onNavigate);
    this.document.defaultView?.removeEventListener('pagehide', this.#onPagehide);
  }

  /** Waits, from the end of the action, until the page settles (see the module comment). */
  settle(options: SettleOptions, signal: AbortSignal): Promise<Settled> {
    const actionEnded = performance.now();
    return new Promise<Settled>((resolve, reject) => {
      let routingDone = false;
      const routing = this.routing;
      routing?.then(
        () => (routingDone = true),
        () => (routingDone = true),
      );
      let cancelBeat = () => {};
      const stop = () => {
        cancelBeat();
        signal.removeEventListener('abort', onAbort);
      };
      const finish = (reason: SettleReason, beats?: number) => {
        stop();
        const now = performance.now();
        resolve({
          reason,
          ms: Math.round(now - this.#started),
          workMs: Math.round(actionEnded - this.#started),
          settleMs: Math.round(now - actionEnded),
          mutations: this.#mutations,
          ...(beats !== undefined ? { beats } : {}),
        });
      };
      const onAbort = () => {
        stop();
        reject(new ActionCancelled());
      };
      // Activity (a DOM change, a request starting or ending) seen by the previous beat. What the
      // action did before the wait began is already seen: a page that answered within the action
      // (a synchronous handler, a framework's microtask render) needs two beats, not a third.
      let seenMutations = this.#mutations;
      let seenRequests = this.#requests.events;
      let quietBeats = 0;
      // What the action itself queued has run by the first beat; only what is queued after counts.
      this.due?.();
      const step = () => {
        const now = performance.now();
        if (this.leaving) return finish('navigation');
        if (now - actionEnded >= options.capMs) return finish('cap');
        if (this.#mutations !== seenMutations || this.#requests.events !== seenRequests) {
          seenMutations = this.#mutations;
          seenRequests = this.#requests.events;
          quietBeats = 0;
        } else quietBeats++;
        // Asked every beat, so a port message counts in the beat it was posted in.
        const due = this.due ? this.due() : 'soon';
        const beatsNeeded = due === 'soon' ? options.quietBeats : Math.min(options.quietBeats, 1);
        const waitingOnRouter = routing !== undefined && !routingDone;
        // A region the page marks aria-busy is still loading: its content is what the action asked for.
        // A fade or slide the action set off: the page shows its effect once it has ended.
        if (!waitingOnRouter && !this.#requests.pending && !this.#newlyBusy()) {
          const active = this.#mutations > 0 || this.#requests.events > 0;
          const quietLongEnough = this.#lastChange < 0 || now - this.#lastChange >= options.quietMs;
          const idleOver = now - actionEnded >= options.idleMs;
          // Two beats, not one: in the tab in front a frame has been drawn by then, so what the page does
          // at a frame (observers, scroll events) has been done or set.
          const idleVouched =
            options.idleVouched === true &&
            due === 'none' &&
            options.idleMs <= LATER_MAX_MS &&
            quietBeats >= Math.max(options.quietBeats, 2);
          const done = active ? quietBeats >= beatsNeeded && quietLongEnough : idleOver || idleVouched;
          // Asked last, only when the wait would otherwise end: reading animations flushes style.
          if (done && !this.#animations.running(now)) {
            if (active) return finish('quiet', quietBeats);
            return idleOver ? finish('idle') : finish('idle', quietBeats);
          }
        }
        schedule();
      };
      const schedule = () => {
        // Whole beats, not the page's next frame (`pageClock.beat`): two frames can pass between the
        // changes of a page that keeps changing by timer, and it would look quiet.
        cancelBeat = pageClock.schedule(BEAT_MS, step);
      };
      if (signal.aborted) return reject(new ActionCancelled());
      signal.addEventListener('abort', onAbort, { once: true });
      // A navigation the action set off ends the wait without waiting for a beat.
      if (this.leaving) return finish('navigation');
      schedule();
    });
  }
}
