/**
 * The audit log: every tool call, allowed or refused, oldest first. Bounded (oldest dropped) and
 * persisted in the local area; exported as JSON Lines. Each window's panel appends to the same
 * stored log, so writes merge under a lock (the Web Locks API in the panel) instead of overwriting
 * each other, and entries carry ids so a merge never loses or doubles one.
 */
import type { AuditEntry } from './types';
import type { StorageArea } from '../../shared/stores';

export const AUDIT_KEY = 'audit';
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

function mergeEntries(a: readonly AuditEntry[], b: readonly AuditEntry[], limit: number): AuditEntry[] {
  const byId = new Map<string, AuditEntry>();
  for (const entry of [...a, ...b]) byId.set(idOf(entry), entry);
  const merged = [...byId.values()].sort((x, y) => x.time - y.time);
  return merged.slice(-limit);
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

  async #readStored(): Promise<AuditEntry[]> {
    const { [AUDIT_KEY]: stored } = await this.area.get([AUDIT_KEY]);
    return Array.isArray(stored) ? stored.filter(isEntry) : [];
  }

  /** Reads the stored log (including what other panels wrote since). */
  async load(): Promise<void> {
    const stored = await this.#readStored();
    this.#entries = mergeEntries(stored, this.#pending, this.#limit);
    this.#changed();
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
          await this.#exclusive(async () => {
            const merged = mergeEntries(await this.#readStored(), batch, this.#limit);
            await this.area.set({ [AUDIT_KEY]: merged });
          });
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

  async clear(): Promise<void> {
    await this.flushed();
    await this.#exclusive(() => this.area.set({ [AUDIT_KEY]: [] }));
    this.#entries = [];
    this.#changed();
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
