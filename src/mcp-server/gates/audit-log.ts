/**
 * The audit log: every tool call, allowed or refused, in the order it was written. Bounded (oldest
 * dropped, and counted in a checkpoint) and persisted in the local area; exported as JSON Lines.
 * Each window's panel appends to the same stored log, so writes merge under a lock (the Web Locks
 * API in the panel) instead of overwriting each other; entries carry ids so a merge never loses or
 * doubles one, and are linked into a hash chain as they are written (audit-chain.ts).
 */
import { chainEntries, exportLines, START, tailOf, verifyChain, type AuditCheckpoint } from './audit-chain';
import type { AuditEntry } from './types';
import type { StorageArea } from '../../shared/stores';

export const AUDIT_KEY = 'audit';
export const CHECKPOINT_KEY = 'auditCheckpoint';
export const AUDIT_LIMIT = 5_000;

export type Exclusive = <T>(work: () => Promise<T>) => Promise<T>;

export interface AuditLogOptions {
  limit?: number;
  /** Runs a read-merge-write exclusively across every panel. */
  exclusive?: Exclusive;
  mintId?(): string;
}

function isEntry(value: unknown): value is AuditEntry {
  if (!value || typeof value !== 'object') return false;
  const entry = value as Partial<AuditEntry>;
  return typeof entry.time === 'number' && typeof entry.tool === 'string' && typeof entry.outcome === 'string';
}

/** Entries older than the id scheme get a stable one from their content. */
function idOf(entry: AuditEntry): string {
  return entry.id ?? `${entry.time}:${entry.agent}:${entry.tool}:${entry.durationMs}`;
}

/** What is stored first, then what is not stored yet, in the order it was appended. */
function mergeEntries(stored: readonly AuditEntry[], pending: readonly AuditEntry[], limit: number): AuditEntry[] {
  const known = new Set(stored.map(idOf));
  return [...stored, ...pending.filter((entry) => !known.has(idOf(entry)))].slice(-limit);
}

function isCheckpoint(value: unknown): value is AuditCheckpoint {
  const checkpoint = value as Partial<AuditCheckpoint> | null;
  return !!checkpoint && Number.isInteger(checkpoint.dropped) && typeof checkpoint.hash === 'string';
}

/**
 * Links what is not linked yet (entries written before the chain existed, then the new batch)
 * after the stored chain, and drops the oldest beyond `limit` into the checkpoint.
 */
async function linked(
  stored: readonly AuditEntry[],
  checkpoint: AuditCheckpoint,
  batch: readonly AuditEntry[],
  limit: number,
): Promise<{ entries: AuditEntry[]; checkpoint: AuditCheckpoint }> {
  const known = new Set(stored.map(idOf));
  const firstUnlinked = stored.findIndex((entry) => !entry.hash);
  const kept = firstUnlinked < 0 ? [...stored] : stored.slice(0, firstUnlinked);
  const unlinked = [
    ...(firstUnlinked < 0 ? [] : stored.slice(firstUnlinked)),
    ...batch.filter((e) => !known.has(idOf(e))),
  ];
  const entries = [...kept, ...(await chainEntries(tailOf(kept, checkpoint), unlinked))];
  const excess = entries.length - limit;
  if (excess <= 0) return { entries, checkpoint };
  const dropped = entries.splice(0, excess);
  return { entries, checkpoint: { dropped: checkpoint.dropped + excess, hash: dropped.at(-1)!.hash! } };
}

export class AuditLog {
  #entries: AuditEntry[] = [];
  /** Appended here and not yet written. */
  #pending: AuditEntry[] = [];
  #writing: Promise<void> | undefined;
  readonly #listeners = new Set<() => void>();
  readonly #limit: number;
  readonly #exclusive: Exclusive;
  readonly #mintId: () => string;

  constructor(
    private readonly area: StorageArea,
    options: AuditLogOptions = {},
  ) {
    this.#limit = options.limit ?? AUDIT_LIMIT;
    this.#exclusive = options.exclusive ?? ((work) => work());
    this.#mintId = options.mintId ?? (() => crypto.randomUUID());
  }

  #checkpoint: AuditCheckpoint = START;

  async #readStored(): Promise<{ entries: AuditEntry[]; checkpoint: AuditCheckpoint }> {
    const { [AUDIT_KEY]: stored, [CHECKPOINT_KEY]: checkpoint } = await this.area.get([AUDIT_KEY, CHECKPOINT_KEY]);
    return {
      entries: Array.isArray(stored) ? stored.filter(isEntry) : [],
      checkpoint: isCheckpoint(checkpoint) ? checkpoint : START,
    };
  }

  /** Reads the stored log (including what other panels wrote since). */
  async load(): Promise<void> {
    const stored = await this.#readStored();
    this.#checkpoint = stored.checkpoint;
    this.#entries = mergeEntries(stored.entries, this.#pending, this.#limit);
    this.#changed();
  }

  /** Where the stored chain starts: how many entries were dropped before it, and their last hash. */
  get checkpoint(): AuditCheckpoint {
    return this.#checkpoint;
  }

  get entries(): readonly AuditEntry[] {
    return this.#entries;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  append(entry: AuditEntry): void {
    const withId = entry.id ? entry : { ...entry, id: this.#mintId() };
    this.#entries.push(withId);
    if (this.#entries.length > this.#limit) this.#entries.splice(0, this.#entries.length - this.#limit);
    this.#pending.push(withId);
    this.#schedule();
    this.#changed();
  }

  /** One write at a time; appends that arrive meanwhile go out together in the next one. */
  #schedule(): void {
    if (this.#writing) return;
    this.#writing = (async () => {
      while (this.#pending.length) {
        const batch = this.#pending;
        this.#pending = [];
        try {
          const written = await this.#exclusive(async () => {
            const stored = await this.#readStored();
            const next = await linked(stored.entries, stored.checkpoint, batch, this.#limit);
            await this.area.set({ [AUDIT_KEY]: next.entries, [CHECKPOINT_KEY]: next.checkpoint });
            return next;
          });
          // What is shown becomes what is stored: linked, and with other panels' entries in chain order.
          this.#checkpoint = written.checkpoint;
          this.#entries = mergeEntries(written.entries, this.#pending, this.#limit);
          this.#changed();
        } catch {
          // Storage refused (quota, shutdown): the entries stay visible here and are retried with the next append.
          this.#pending = [...batch, ...this.#pending];
          break;
        }
      }
      this.#writing = undefined;
    })();
  }

  /** Resolves when everything appended so far has been written (or the write failed). */
  async flushed(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  /** Empties the log; the checkpoint counts what was cleared, so the chain goes on from it. */
  async clear(): Promise<void> {
    await this.flushed();
    this.#checkpoint = await this.#exclusive(async () => {
      const stored = await this.#readStored();
      const { entries, checkpoint } = await linked(stored.entries, stored.checkpoint, [], Infinity);
      const cleared = entries.length
        ? { dropped: checkpoint.dropped + entries.length, hash: tailOf(entries, checkpoint) }
        : checkpoint;
      await this.area.set({ [AUDIT_KEY]: [], [CHECKPOINT_KEY]: cleared });
      return cleared;
    });
    this.#entries = [];
    this.#changed();
  }

  /** The whole written log as JSON Lines: its checkpoint, then every entry with its chain links. */
  async exportChain(): Promise<string> {
    await this.flushed();
    const stored = await this.#readStored();
    return exportLines(stored.entries, stored.checkpoint);
  }

  /** Verifies the written log's chain from its checkpoint. */
  async verify(): ReturnType<typeof verifyChain> {
    await this.flushed();
    const stored = await this.#readStored();
    return verifyChain(stored.entries, stored.checkpoint);
  }

  toJsonLines(entries: readonly AuditEntry[] = this.#entries): string {
    return entries.map((entry) => JSON.stringify(entry)).join('\n') + (entries.length ? '\n' : '');
  }
}

export type OutcomeFilter = 'all' | 'ok' | 'error' | 'refused' | 'cancelled';

export interface AuditQuery {
  agent?: string;
  tool?: string;
  outcome?: OutcomeFilter;
  /** Matched case-insensitively against origin, arguments, looked-up targets and detail. */
  text?: string;
}

export function filterAudit(entries: readonly AuditEntry[], query: AuditQuery): AuditEntry[] {
  const text = query.text?.trim().toLowerCase();
  return entries.filter((entry) => {
    if (query.agent && entry.agent !== query.agent) return false;
    if (query.tool && entry.tool !== query.tool) return false;
    const outcome = query.outcome ?? 'all';
    if (outcome === 'refused' && !entry.outcome.startsWith('refused:')) return false;
    if (outcome !== 'all' && outcome !== 'refused' && entry.outcome !== outcome) return false;
    if (text) {
      const haystack =
        `${entry.origin} ${entry.destination ?? ''} ${JSON.stringify(entry.args)} ` +
        `${entry.targets?.join(' ') ?? ''} ${entry.detail ?? ''}`;
      if (!haystack.toLowerCase().includes(text)) return false;
    }
    return true;
  });
}
