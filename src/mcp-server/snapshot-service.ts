/**
 * Takes accessibility snapshots of a tab — every reachable frame, stitched into one tree — and
 * remembers the last full one per tab. Ref numbers come from a per-tab counter persisted outside
 * the page, so a ref is never handed out twice in a tab: not after a navigation, not after the
 * panel reloads.
 */
import type { FrameInfo, PagePort, TabInfo } from './browser-port';
import { stitchFrames, type FrameSnapshot } from './snapshot-frames';
import type { z } from 'zod';
import type { SnapshotReply } from '../page/protocol';
import type { TargetQuery } from '../page/target-match';

export { DEFAULT_MAX_CHARS, formatSnapshot } from './snapshot-format';

export interface RefCounterStore {
  next(tabId: number): Promise<number>;
  advance(tabId: number, next: number): Promise<void>;
}

export class MemoryRefCounters implements RefCounterStore {
  readonly #next = new Map<number, number>();
  async next(tabId: number): Promise<number> {
    return this.#next.get(tabId) ?? 1;
  }
  async advance(tabId: number, next: number): Promise<void> {
    this.#next.set(tabId, Math.max(next, this.#next.get(tabId) ?? 1));
  }
}

export interface Snapshot {
  title: string;
  url: string;
  lines: string[];
  /** The top document's id (random, from the page agent): a new value means the tab navigated. */
  documentId: string;
  /** The selector the snapshot was limited to, if any. */
  selector?: string;
}

export interface CaptureOptions {
  selector?: string;
  signal?: AbortSignal;
  /**
   * Elements looked up by role and name: every line they name carries a ref, even one a snapshot
   * prints without, so the capture is a lookup, not the tab's latest snapshot.
   */
  targets?: readonly TargetQuery[];
}

type Reply = z.infer<typeof SnapshotReply>;

function randomNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export class SnapshotService {
  readonly #last = new Map<number, Snapshot>();
  readonly #locks = new Map<number, Promise<unknown>>();

  constructor(private readonly counters: RefCounterStore) {}

  /** Serialised per tab: ref numbering must not interleave. */
  #exclusive<T>(tabId: number, work: () => Promise<T>): Promise<T> {
    const previous = this.#locks.get(tabId) ?? Promise.resolve();
    const run = previous.then(work, work);
    this.#locks.set(
      tabId,
      run.catch(() => undefined),
    );
    return run;
  }

  /**
   * Walks the tab through `page`, which reaches only documents the gates allow: child frames they
   * refuse are never walked and show as unavailable.
   */
  capture(page: PagePort, tab: TabInfo, options: CaptureOptions = {}): Promise<Snapshot> {
    return this.#exclusive(tab.id, async () => {
      const refBase = await this.counters.next(tab.id);
      const { top, byFrame } = await this.#walkFrames(page, tab.id, refBase, options);
      const nextRef = Math.max(top.nextRef, ...[...byFrame.values()].map((reply) => reply.nextRef));
      await this.counters.advance(tab.id, nextRef);
      const snapshot: Snapshot = {
        title: top.title,
        url: top.url,
        lines: stitchFrames(top, byFrame),
        documentId: top.documentId,
        ...(options.selector ? { selector: options.selector } : {}),
      };
      if (!options.selector && !options.targets?.length) this.#last.set(tab.id, snapshot);
      return snapshot;
    });
  }

  /**
   * The top frame walks at once; meanwhile the frame list is fetched and, when there are child
   * frames, they walk too, each first introducing itself to its parent window with the snapshot's
   * nonce (a parent frame waits for its children). Pages without iframes are done in one round;
   * with iframes, one short extra call lets the top match its iframe elements to the frames that
   * spoke from inside them.
   */
  async #walkFrames(page: PagePort, tabId: number, refBase: number, options: CaptureOptions) {
    const nonce = randomNonce();
    const signal = options.signal;
    const targets = options.targets?.length ? { targets: [...options.targets] } : {};
    const topRun = page.run(
      tabId,
      {
        op: 'snapshot',
        frameId: 0,
        refBase,
        nonce,
        ...(options.selector ? { selector: options.selector } : {}),
        ...targets,
      },
      { signal, frameId: 0 },
    );
    const childRuns = page
      .readableFrames(tabId)
      .catch(() => [] as FrameInfo[])
      .then((children) => {
        const childrenOf = (frameId: number) =>
          children.filter((frame) => frame.parentFrameId === frameId).map((frame) => frame.frameId);
        const replies = children.map((frame) =>
          page
            .run(
              tabId,
              {
                op: 'snapshot',
                frameId: frame.frameId,
                refBase,
                nonce,
                childFrames: childrenOf(frame.frameId),
                ...targets,
              },
              { signal, frameId: frame.frameId },
            )
            // A child frame that cannot answer (navigating, not scriptable) shows as unavailable.
            .catch(() => undefined),
        );
        return { topChildren: childrenOf(0), replies: Promise.all(replies), children };
      });
    const [top, { topChildren, replies, children }] = await Promise.all([topRun, childRuns]);
    const byFrame = new Map<number, FrameSnapshot & Reply>();
    if (!children.length) return { top, byFrame };
    const [slots, answered] = await Promise.all([
      top.frames?.length
        ? page.run(tabId, { op: 'frameSlots', nonce, childFrames: topChildren }, { signal, frameId: 0 })
        : { frames: [] },
      replies,
    ]);
    answered.forEach((reply, i) => reply && byFrame.set(children[i]!.frameId, reply));
    return { top: { ...top, frames: slots.frames }, byFrame };
  }

  last(tabId: number): Snapshot | undefined {
    return this.#last.get(tabId);
  }

  /** Forgets a tab's last snapshot (the tab closed). */
  forget(tabId: number): void {
    this.#last.delete(tabId);
  }
}
