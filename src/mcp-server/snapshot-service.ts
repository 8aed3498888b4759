/**
 * Takes accessibility snapshots of a tab and remembers the last one per tab. Ref numbers come
 * from a per-tab counter that is persisted outside the page, so a ref is never handed out twice
 * in a tab — not after a navigation, not after the panel reloads.
 */
import type { PagePort, TabInfo } from './browser-port';

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
}

export const DEFAULT_MAX_CHARS = 24_000;

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

  capture(tab: TabInfo, options: { selector?: string; signal?: AbortSignal } = {}): Promise<Snapshot> {
    return this.#exclusive(tab.id, async () => {
      const refBase = await this.counters.next(tab.id);
      const reply = await this.page.run(
        tab.id,
        { op: 'snapshot', frameId: 0, refBase, ...(options.selector ? { selector: options.selector } : {}) },
        { signal: options.signal },
      );
      await this.counters.advance(tab.id, reply.nextRef);
      const snapshot = { title: reply.title, url: reply.url, lines: reply.lines };
      if (!options.selector) this.#last.set(tab.id, snapshot);
      return snapshot;
    });
  }

  last(tabId: number): Snapshot | undefined {
    return this.#last.get(tabId);
  }
}

/** The snapshot as the model reads it, truncated visibly when over budget. */
export function formatSnapshot(snapshot: Snapshot, maxChars = DEFAULT_MAX_CHARS): string {
  const header = `# snapshot — ${snapshot.title.replace(/\s+/g, ' ')}\n# ${snapshot.url}\n`;
  const body = snapshot.lines.join('\n');
  if (maxChars === 0 || header.length + body.length <= maxChars) return header + body;
  let used = header.length;
  const kept: string[] = [];
  for (const line of snapshot.lines) {
    if (used + line.length + 1 > maxChars) break;
    kept.push(line);
    used += line.length + 1;
  }
  const omitted = snapshot.lines.length - kept.length;
  return (
    header +
    kept.join('\n') +
    `\n# … truncated: ${omitted} more lines (budget ${maxChars} characters). ` +
    'Narrow with `selector`, search with `find`, scroll, or pass a larger `maxChars` (0 for no budget).'
  );
}
