/**
 * Takes accessibility snapshots of a tab — every reachable frame, stitched into one tree — and
 * remembers the last full one per tab. Ref numbers come from a per-tab counter persisted outside
 * the page, so a ref is never handed out twice in a tab: not after a navigation, not after the
 * panel reloads.
 */
import { PageCommandError, type FrameInfo, type PagePort, type TabInfo } from './browser-port';
import { stitchFrames, type FrameSnapshot } from './snapshot-frames';
import type { z } from 'zod';
import type { SnapshotReply } from '../page/protocol';

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
   * Whether a child frame's content may be shown, by the frame's URL (the gates' site rules). Frames
   * refused here appear as unavailable; about:blank and srcdoc frames belong to their parent.
   */
  frameAllowed?: (url: string) => Promise<boolean>;
}

type Reply = z.infer<typeof SnapshotReply>;

function randomNonce(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export class SnapshotService {
  readonly #last = new Map<number, Snapshot>();
  readonly #locks = new Map<number, Promise<unknown>>();

  constructor(
    private readonly page: PagePort,
    private readonly counters: RefCounterStore,
  ) {}

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

  capture(tab: TabInfo, options: CaptureOptions = {}): Promise<Snapshot> {
    return this.#exclusive(tab.id, async () => {
      const refBase = await this.counters.next(tab.id);
      const frames = await this.page.frames(tab.id).catch(() => [] as FrameInfo[]);
      const { top, byDocument } =
        frames.length > 1 && this.page.runInFrames
          ? await this.#captureFrames(tab.id, frames, refBase, options)
          : await this.#captureTop(tab.id, refBase, options);
      const nextRef = Math.max(top.nextRef, ...[...byDocument.values()].map((reply) => reply.nextRef));
      await this.counters.advance(tab.id, nextRef);
      const snapshot: Snapshot = {
        title: top.title,
        url: top.url,
        lines: stitchFrames(top, byDocument),
        documentId: top.documentId,
        ...(options.selector ? { selector: options.selector } : {}),
      };
      if (!options.selector) this.#last.set(tab.id, snapshot);
      return snapshot;
    });
  }

  async #captureTop(tabId: number, refBase: number, options: CaptureOptions) {
    const top = await this.page.run(
      tabId,
      { op: 'snapshot', frameId: 0, refBase, ...(options.selector ? { selector: options.selector } : {}) },
      { signal: options.signal, frameId: 0 },
    );
    return { top, byDocument: new Map<string, FrameSnapshot & Reply>() };
  }

  /**
   * Two rounds over all frames: `hello` (each document introduces itself to its parent window and
   * tells us its id), then `snapshot` (each parent maps its iframe elements to those ids).
   */
  async #captureFrames(tabId: number, frames: FrameInfo[], refBase: number, options: CaptureOptions) {
    const nonce = randomNonce();
    const runInFrames = this.page.runInFrames!.bind(this.page);
    const hellos = await runInFrames(tabId, { op: 'hello', nonce }, { signal: options.signal });
    const info = new Map(frames.map((frame) => [frame.frameId, frame]));
    const documentOf = new Map<number, string>();
    for (const hello of hellos) if (hello.reply) documentOf.set(hello.frameId, hello.reply.documentId);
    const allowed = new Set<number>([0]);
    for (const frame of frames) {
      if (frame.frameId === 0 || !documentOf.has(frame.frameId)) continue;
      const inherited = /^about:/.test(frame.url);
      if (inherited || !options.frameAllowed || (await options.frameAllowed(frame.url))) allowed.add(frame.frameId);
    }
    const frameIds: Record<string, number> = {};
    const children: Record<string, string[]> = {};
    for (const [frameId, documentId] of documentOf) {
      if (!allowed.has(frameId)) continue;
      frameIds[documentId] = frameId;
      const parent = documentOf.get(info.get(frameId)?.parentFrameId ?? -1);
      if (parent) (children[parent] ??= []).push(documentId);
    }
    const replies = await runInFrames(
      tabId,
      {
        op: 'snapshot',
        refBase,
        nonce,
        frames: frameIds,
        children,
        ...(options.selector ? { selector: options.selector } : {}),
      },
      { signal: options.signal, frameIds: [...allowed].filter((id) => id === 0 || documentOf.has(id)) },
    );
    const topRun = replies.find((run) => run.frameId === 0);
    if (!topRun?.reply) throw topRun?.error ?? new PageCommandError('The page did not answer.', 'no-reply');
    const byDocument = new Map<string, FrameSnapshot & Reply>();
    for (const run of replies) if (run.reply && run.frameId !== 0) byDocument.set(run.reply.documentId, run.reply);
    return { top: topRun.reply, byDocument };
  }

  last(tabId: number): Snapshot | undefined {
    return this.#last.get(tabId);
  }

  /** Forgets a tab's last snapshot (the tab closed). */
  forget(tabId: number): void {
    this.#last.delete(tabId);
  }
}
