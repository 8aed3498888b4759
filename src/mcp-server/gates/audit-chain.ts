/**
 * The audit log's hash chain. Each entry carries the hash of the entry before it (`prev`) and the
 * hash of its own content with that link (`hash`), so an entry edited, removed or moved after it
 * was written breaks the chain at that place. The log is bounded: what it drops is summed up in a
 * checkpoint (how many entries, and the hash the last of them ended on), and verification starts
 * from there. A chain recomputed from scratch verifies: only a copy kept elsewhere (a collector's)
 * shows that, by differing.
 */
import type { AuditEntry } from './types';

/** The link before the first entry a log ever wrote. */
export const GENESIS = '0'.repeat(64);

export interface AuditCheckpoint {
  /** Entries dropped from the start of the log so far. */
  dropped: number;
  /** The hash the last dropped entry ended on: the first kept entry's `prev`. */
  hash: string;
}

export const START: AuditCheckpoint = { dropped: 0, hash: GENESIS };

/** JSON with object keys in one order, so the same content always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value && typeof value === 'object') {
    const fields = Object.keys(value)
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${fields.join(',')}}`;
  }
  return JSON.stringify(value);
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The hash of an entry's content and its link to the one before; its own `hash` field is left out. */
export function entryHash(entry: AuditEntry): Promise<string> {
  const { hash: _own, ...content } = entry;
  return sha256(canonicalJson(content));
}

/** Links `entries`, in order, after the entry whose hash is `tail`. */
export async function chainEntries(tail: string, entries: readonly AuditEntry[]): Promise<AuditEntry[]> {
  const chained: AuditEntry[] = [];
  let prev = tail;
  for (const entry of entries) {
    const { hash: _stale, ...rest } = entry;
    const linked: AuditEntry = { ...rest, prev };
    const hash = await entryHash(linked);
    chained.push({ ...linked, hash });
    prev = hash;
  }
  return chained;
}

/** The hash a log's next entry links to. */
export function tailOf(entries: readonly AuditEntry[], checkpoint: AuditCheckpoint): string {
  return entries.at(-1)?.hash ?? checkpoint.hash;
}

export type ChainVerdict =
  | { ok: true; entries: number; checkpoint: AuditCheckpoint }
  | {
      ok: false;
      /** 1-based position among the entries (the checkpoint line not counted). */
      position: number;
      id?: string;
      reason: 'edited' | 'unlinked' | 'unchained' | 'malformed';
      text: string;
    };

const describe = (position: number, entry: AuditEntry | undefined) =>
  entry
    ? `entry ${position} (${new Date(entry.time).toISOString()}, ${entry.agent}, ${entry.tool})`
    : `line ${position}`;

/** Checks every link from the checkpoint on; names the first one that is broken. */
export async function verifyChain(entries: readonly AuditEntry[], checkpoint: AuditCheckpoint): Promise<ChainVerdict> {
  let prev = checkpoint.hash;
  for (const [i, entry] of entries.entries()) {
    const position = i + 1;
    const id = entry.id;
    const at = describe(position, entry);
    if (typeof entry.hash !== 'string' || typeof entry.prev !== 'string') {
      return { ok: false, position, id, reason: 'unchained', text: `${at} carries no chain link.` };
    }
    if (entry.prev !== prev) {
      return {
        ok: false,
        position,
        id,
        reason: 'unlinked',
        text: `${at} does not follow the entry before it: an entry was removed, added or moved there.`,
      };
    }
    if ((await entryHash(entry)) !== entry.hash) {
      return { ok: false, position, id, reason: 'edited', text: `${at} was changed after it was written.` };
    }
    prev = entry.hash;
  }
  return { ok: true, entries: entries.length, checkpoint };
}

/** One line of an export: the checkpoint comes first, then the entries in chain order. */
interface CheckpointLine {
  checkpoint: AuditCheckpoint;
}

export function exportLines(entries: readonly AuditEntry[], checkpoint: AuditCheckpoint): string {
  const lines = [JSON.stringify({ checkpoint } satisfies CheckpointLine), ...entries.map((e) => JSON.stringify(e))];
  return lines.join('\n') + '\n';
}

function isCheckpoint(value: unknown): value is CheckpointLine {
  const checkpoint = (value as Partial<CheckpointLine> | null)?.checkpoint;
  return (
    !!checkpoint &&
    typeof checkpoint === 'object' &&
    Number.isInteger(checkpoint.dropped) &&
    typeof checkpoint.hash === 'string'
  );
}

/**
 * A line as a collector receives it from forwarding: `{ id, kind: 'entry', position, entry }`, or
 * `{ kind: 'dropped', … }` for entries the log dropped before they were sent.
 */
function forwarded(value: unknown): { entry: AuditEntry } | { dropped: true } | undefined {
  const line = value as { kind?: unknown; entry?: unknown; id?: unknown } | null;
  if (!line || typeof line.id !== 'string') return undefined;
  if (line.kind === 'dropped') return { dropped: true };
  if (line.kind === 'entry' && line.entry && typeof line.entry === 'object') return { entry: line.entry as AuditEntry };
  return undefined;
}

/**
 * Reads an export back; an export without a checkpoint line starts from the log's very first entry.
 * What a collector received by forwarding reads too: its entries in order, each once (a batch
 * sent again repeats lines under the same id), its lines about dropped entries left out.
 */
export function parseExport(
  text: string,
): { entries: AuditEntry[]; checkpoint: AuditCheckpoint } | { error: string; position: number } {
  const lines = text.split('\n').filter((line) => line.trim());
  let checkpoint = START;
  const entries: AuditEntry[] = [];
  const seen = new Set<string | undefined>();
  for (const [i, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { error: `line ${i + 1} is not JSON.`, position: i + 1 };
    }
    if (i === 0 && isCheckpoint(value)) {
      checkpoint = value.checkpoint;
      continue;
    }
    const received = forwarded(value);
    if (received) {
      if ('entry' in received && !seen.has(received.entry.hash)) {
        seen.add(received.entry.hash);
        entries.push(received.entry);
      }
      continue;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value) || isCheckpoint(value)) {
      return { error: `line ${i + 1} is not an audit entry.`, position: i + 1 };
    }
    entries.push(value as AuditEntry);
  }
  return { entries, checkpoint };
}

export type CopyVerdict = { ok: true; compared: number } | { ok: false; id: string; text: string };

/**
 * Compares the log with a copy kept elsewhere (a collector's), entry by entry by id: a chain
 * recomputed after an edit or a removal verifies on its own, but no longer matches the copy.
 */
export function compareWithCopy(local: readonly AuditEntry[], copy: readonly AuditEntry[]): CopyVerdict {
  const mine = new Map(local.filter((entry) => entry.id).map((entry) => [entry.id!, entry]));
  const oldest = local[0]?.time ?? Infinity;
  let compared = 0;
  for (const kept of copy) {
    if (!kept.id) continue;
    const here = mine.get(kept.id);
    if (!here) {
      // The log is bounded: entries older than its oldest were dropped, not removed.
      if (kept.time < oldest) continue;
      return { ok: false, id: kept.id, text: `The copy has entry ${kept.id}, which this log no longer holds.` };
    }
    if (here.hash !== kept.hash) {
      return {
        ok: false,
        id: kept.id,
        text: `Entry ${kept.id} differs from the copy: it was changed after it was sent.`,
      };
    }
    compared++;
  }
  return { ok: true, compared };
}
