/**
 * The transcript of each window, kept in `chrome.storage.local` so closing and reopening the panel
 * brings it back (the sessions themselves resume through `SessionIdStore`). Bounded by item count
 * and size, oldest dropped first. Messages not sent yet and the unsent draft are kept too, so
 * nothing typed is lost. Stored data is versioned and validated; what cannot be read is reported.
 */
import { z } from 'zod';
import type { StorageArea } from '../shared/stores';
import type { ChatModel } from './chat-model';
import type { ChatItem, QueueView } from './chat-types';
import { t } from './i18n';

/**
 * 2: which agent still has to take which message is stored once, as each outbox's queue
 * (`queue`), no longer as a `pending` list on every user message (version 1).
 */
export const HISTORY_VERSION = 2;

export interface HistoryLimits {
  maxItems: number;
  /** Upper bound on the stored JSON, in characters. */
  maxChars: number;
  /** Longest text kept for any one segment or message. */
  maxTextChars: number;
  /** Histories of windows not seen for this long are deleted. */
  maxAgeMs: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = {
  maxItems: 400,
  maxChars: 2_000_000,
  maxTextChars: 200_000,
  maxAgeMs: 30 * 24 * 3600 * 1000,
};

const base = { id: z.string(), at: z.number() };
const StoredSegment = z.looseObject({ kind: z.string(), id: z.string() });
const StoredItem = z.discriminatedUnion('kind', [
  z.looseObject({
    kind: z.literal('user'),
    ...base,
    text: z.string(),
    to: z.array(z.string()),
  }),
  z.looseObject({
    kind: z.literal('agent'),
    ...base,
    agentId: z.string(),
    agentName: z.string(),
    segments: z.array(StoredSegment),
    done: z.boolean(),
  }),
  z.looseObject({ kind: z.literal('notice'), ...base, text: z.string(), severity: z.string() }),
]);
const StoredQueue = z.record(z.string(), z.array(z.string()));
const StoredHistory = z.object({
  version: z.literal(HISTORY_VERSION),
  savedAt: z.number(),
  items: z.array(z.unknown()),
  draft: z.string().default(''),
  queue: StoredQueue.default({}),
});
const StoredHistoryV1 = z.object({
  version: z.literal(1),
  savedAt: z.number(),
  items: z.array(z.unknown()),
  draft: z.string().default(''),
});
type StoredHistory = z.infer<typeof StoredHistory>;

/**
 * Version 1 kept, on each user message, the agents that had not taken it yet. Each agent's queue
 * is those messages in transcript order, which is the order they were sent in.
 */
export function migrateHistoryV1(stored: z.infer<typeof StoredHistoryV1>): StoredHistory {
  const queue: Record<string, string[]> = {};
  const items = stored.items.map((raw) => {
    if (typeof raw !== 'object' || raw === null || (raw as { kind?: unknown }).kind !== 'user') return raw;
    const { pending, ...item } = raw as { pending?: unknown; id?: unknown };
    if (Array.isArray(pending) && typeof item.id === 'string') {
      for (const agentId of pending) if (typeof agentId === 'string') (queue[agentId] ??= []).push(item.id);
    }
    return item;
  });
  return { ...stored, version: HISTORY_VERSION, items, queue };
}

function readHistory(stored: unknown): StoredHistory | undefined {
  const current = StoredHistory.safeParse(stored);
  if (current.success) return current.data;
  const v1 = StoredHistoryV1.safeParse(stored);
  return v1.success ? migrateHistoryV1(v1.data) : undefined;
}

/**
 * The queues to store: the outboxes' own, after what the panel restored and has not given back to
 * them yet (the agents are still being added), so a save in between loses none of it.
 */
export function withRestoredQueue(restored: QueueView, live: QueueView): QueueView {
  const agents = new Set([...Object.keys(restored), ...Object.keys(live)]);
  return Object.fromEntries(
    [...agents].map((agentId) => [agentId, [...new Set([...(restored[agentId] ?? []), ...(live[agentId] ?? [])])]]),
  );
}

export interface LoadedHistory {
  items: ChatItem[];
  draft: string;
  /** What each agent's outbox held when it was saved: given back to the agents once they are added. */
  queue: QueueView;
  problem?: string;
}

/** When each window's conversation was last saved, by window id. */
export const HISTORY_INDEX_KEY = 'history:index';
const INDEX_KEY = HISTORY_INDEX_KEY;

export function historyKey(windowId: number): string {
  return `history:${windowId}`;
}

export class HistoryStore {
  readonly #key: string;

  constructor(
    private readonly area: StorageArea,
    private readonly windowId: number,
    private readonly limits: HistoryLimits = DEFAULT_HISTORY_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.#key = historyKey(windowId);
  }

  async load(): Promise<LoadedHistory> {
    await this.#prune();
    const { [this.#key]: stored } = await this.area.get([this.#key]);
    if (stored === undefined) return { items: [], draft: '', queue: {} };
    const parsed = readHistory(stored);
    if (!parsed) {
      const version = (stored as { version?: unknown } | null)?.version;
      const newer = typeof version === 'number' && version > HISTORY_VERSION;
      return { items: [], draft: '', queue: {}, problem: newer ? t('historyNewer') : t('historyUnreadable') };
    }
    const items: ChatItem[] = [];
    let dropped = 0;
    for (const raw of parsed.items) {
      const item = StoredItem.safeParse(raw);
      if (item.success) items.push(item.data as unknown as ChatItem);
      else dropped++;
    }
    // A queued message whose item could not be read has no text left to send.
    const users = new Set(items.filter((item) => item.kind === 'user').map((item) => item.id));
    const queue = Object.fromEntries(
      Object.entries(parsed.queue)
        .map(([agentId, ids]) => [agentId, ids.filter((id) => users.has(id))] as const)
        .filter(([, ids]) => ids.length > 0),
    );
    const problem = dropped ? { problem: t('historyDropped', String(dropped)) } : {};
    return { items, draft: parsed.draft, queue, ...problem };
  }

  async save(items: readonly ChatItem[], draft: string, queue: QueueView = {}): Promise<void> {
    const savedAt = this.now();
    const queued = new Set(Object.values(queue).flat());
    const value = { version: HISTORY_VERSION, savedAt, items: boundHistory(items, this.limits, queued), draft, queue };
    const { [INDEX_KEY]: index } = await this.area.get([INDEX_KEY]);
    await this.area.set({ [this.#key]: value, [INDEX_KEY]: { ...asIndex(index), [this.windowId]: savedAt } });
  }

  /** Forgets histories of windows unseen for longer than the age limit. */
  async #prune(): Promise<void> {
    const { [INDEX_KEY]: stored } = await this.area.get([INDEX_KEY]);
    const index = asIndex(stored);
    const cutoff = this.now() - this.limits.maxAgeMs;
    const old = Object.keys(index).filter((id) => index[id]! < cutoff && id !== String(this.windowId));
    if (old.length === 0) return;
    await this.area.remove(old.map((id) => historyKey(Number(id))));
    for (const id of old) delete index[id];
    await this.area.set({ [INDEX_KEY]: index });
  }
}

export function asIndex(value: unknown): Record<string, number> {
  if (typeof value !== 'object' || value === null) return {};
  return Object.fromEntries(Object.entries(value).filter(([, at]) => typeof at === 'number')) as Record<string, number>;
}

/**
 * The newest items that fit the limits. Long texts are cut (with a note), images too big to keep
 * are dropped from the stored copy; the live transcript is not touched.
 */
export function boundHistory(
  items: readonly ChatItem[],
  limits: HistoryLimits,
  /** Messages still queued are kept whatever their age: they have not been delivered yet. */
  queued: ReadonlySet<string> = new Set(),
): ChatItem[] {
  const kept: ChatItem[] = [];
  let chars = 0;
  for (let index = items.length - 1; index >= 0; index--) {
    const item = compact(items[index]!, limits.maxTextChars);
    const size = sizeOf(item);
    const fits = kept.length < limits.maxItems && chars + size <= limits.maxChars;
    if (!fits && !queued.has(item.id)) continue;
    kept.push(item);
    chars += size;
  }
  return kept.reverse();
}

/** Stored size, estimated from the texts (serialising a long reply just to measure it is costly). */
function sizeOf(item: ChatItem): number {
  const OVERHEAD = 200;
  if (item.kind !== 'agent') return OVERHEAD + item.text.length;
  let size = OVERHEAD;
  for (const segment of item.segments) {
    size += OVERHEAD;
    if ('text' in segment && typeof segment.text === 'string') size += segment.text.length;
    else size += JSON.stringify(segment).length;
  }
  return size;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}\n\n${t('historyCut')}`;
}

function compact(item: ChatItem, max: number): ChatItem {
  if (item.kind === 'user') return item.text.length > max ? { ...item, text: cut(item.text, max) } : item;
  if (item.kind !== 'agent') return item;
  const segments = item.segments.flatMap((segment) => {
    if (segment.kind === 'media' && segment.media.type === 'image' && segment.media.data.length > max) return [];
    if ('text' in segment && typeof segment.text === 'string' && segment.text.length > max) {
      return [{ ...segment, text: cut(segment.text, max) }];
    }
    return [segment];
  });
  return { ...item, segments };
}

/**
 * Saves the transcript shortly after it changes (a streamed reply is saved every second or two,
 * not per chunk: each save serialises the whole transcript) and at once when a message is typed,
 * sent or answered, and when a turn ends.
 */
export function recordHistory(
  chat: ChatModel,
  store: HistoryStore,
  draft: () => string,
  delayMs = 1_500,
  /** What the outboxes hold; the panel adds what it restored and has not given back to them yet. */
  queue: () => QueueView = () => chat.queue(),
): { flush(): Promise<void>; changed(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let writing: Promise<void> = Promise.resolve();
  // A save not started yet will write the latest state anyway (one message is added and queued
  // in one go): another one behind it would only write the same again.
  let waiting = false;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (waiting) return writing;
    waiting = true;
    writing = writing
      .then(() => {
        waiting = false;
        return store.save(chat.items, draft(), queue());
      })
      .catch((error: unknown) => {
        console.warn('Tabwright: could not save the chat history', error);
      });
    return writing;
  };
  const changed = () => {
    timer ??= setTimeout(() => void flush(), delayMs);
  };
  chat.subscribe((change) => {
    // Saving what was just loaded would serialise the whole stored transcript for nothing.
    if (change.type === 'reset' && change.restored) return;
    const urgent =
      change.type === 'reset' ||
      (change.type === 'added' && change.item.kind === 'user') ||
      (change.type === 'updated' && change.item.kind !== 'notice');
    if (urgent) void flush();
    else changed();
  });
  return { flush, changed };
}
