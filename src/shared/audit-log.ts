/**
 * The audit log: every tool call, allowed or refused, newest last. Bounded (oldest dropped) and
 * persisted in the local area; exported as JSON Lines.
 */
import type { AuditEntry } from '../mcp-server/gates/types';
import type { StorageArea } from './stores';

export const AUDIT_KEY = 'audit';
export const AUDIT_LIMIT = 5_000;

export class AuditLog {
  #entries: AuditEntry[] = [];
  #saving: Promise<void> = Promise.resolve();
  readonly #listeners = new Set<(entry: AuditEntry) => void>();

  constructor(
    private readonly area: StorageArea,
    private readonly limit = AUDIT_LIMIT,
  ) {}

  async load(): Promise<void> {
    const { [AUDIT_KEY]: stored } = await this.area.get([AUDIT_KEY]);
    if (Array.isArray(stored)) this.#entries = (stored as AuditEntry[]).slice(-this.limit);
  }

  get entries(): readonly AuditEntry[] {
    return this.#entries;
  }

  onAppend(listener: (entry: AuditEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  append(entry: AuditEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > this.limit) this.#entries.splice(0, this.#entries.length - this.limit);
    const snapshot = this.#entries;
    this.#saving = this.#saving.then(() => this.area.set({ [AUDIT_KEY]: snapshot })).catch(() => undefined);
    for (const listener of this.#listeners) listener(entry);
  }

  flushed(): Promise<void> {
    return this.#saving;
  }

  toJsonLines(entries: readonly AuditEntry[] = this.#entries): string {
    return entries.map((entry) => JSON.stringify(entry)).join('\n') + (entries.length ? '\n' : '');
  }
}
