/**
 * What to send a collector next. The stored chain's order is the queue: a cursor names the last
 * entry the collector acknowledged (its position in the log since it began, and its hash), and the
 * next batch is what follows it. When the log dropped entries (its bound, or a clear) before they
 * were sent, the batch starts with a line that says so, so nothing is lost silently. Pure.
 */
import { GENESIS, type AuditCheckpoint } from '../mcp-server/gates/audit-chain';
import type { AuditEntry } from '../mcp-server/gates/types';

export interface ForwardCursor {
  /** 1-based position of the last acknowledged entry among every entry the log ever held; 0 for none. */
  position: number;
  hash: string;
}

export const NO_CURSOR: ForwardCursor = { position: 0, hash: GENESIS };

/** One line of the JSON Lines body; `id` is what a collector deduplicates on. */
export type ForwardLine =
  | { id: string; kind: 'entry'; position: number; entry: AuditEntry }
  | {
      id: string;
      kind: 'dropped';
      /** Positions of the first and last entry dropped before they were sent. */
      first: number;
      last: number;
      count: number;
      /** The hash of the last entry sent before the gap, and the `prev` of the first entry after it. */
      prev: string;
      next: string;
    };

export interface Batch {
  lines: ForwardLine[];
  /** The cursor once the collector acknowledged this batch. */
  after: ForwardCursor;
}

interface Resume {
  /** Index into the stored entries of the first one not sent. */
  from: number;
  gap?: Extract<ForwardLine, { kind: 'dropped' }>;
}

function gapLine(first: number, last: number, prev: string, next: string): Resume['gap'] {
  return { id: `dropped:${first}-${last}`, kind: 'dropped', first, last, count: last - first + 1, prev, next };
}

/** Where the cursor stands in the stored log. */
function resume(entries: readonly AuditEntry[], checkpoint: AuditCheckpoint, cursor: ForwardCursor): Resume {
  const index = cursor.position - checkpoint.dropped;
  if (index < 0) {
    return { from: 0, gap: gapLine(cursor.position + 1, checkpoint.dropped, cursor.hash, checkpoint.hash) };
  }
  const expected = index === 0 ? checkpoint.hash : entries[index - 1]?.hash;
  if (index <= entries.length && expected === cursor.hash) return { from: index };
  // Not the log the cursor was taken on (its storage was wiped): send the stored log from its start.
  if (cursor !== NO_CURSOR) return resume(entries, checkpoint, NO_CURSOR);
  return { from: 0 };
}

/** How many stored entries the collector has not acknowledged. */
export function waitingCount(
  entries: readonly AuditEntry[],
  checkpoint: AuditCheckpoint,
  cursor: ForwardCursor,
): number {
  return entries.length - resume(entries, checkpoint, cursor).from;
}

/** The next batch of at most `size` lines, or `undefined` when nothing waits. */
export function nextBatch(
  entries: readonly AuditEntry[],
  checkpoint: AuditCheckpoint,
  cursor: ForwardCursor,
  size: number,
): Batch | undefined {
  const { from, gap } = resume(entries, checkpoint, cursor);
  const lines: ForwardLine[] = gap ? [gap] : [];
  let after: ForwardCursor = gap ? { position: checkpoint.dropped, hash: checkpoint.hash } : cursor;
  for (let i = from; i < entries.length && lines.length < size; i++) {
    const entry = entries[i]!;
    // Linked entries only: one written before the chain existed is linked by the next write.
    if (!entry.hash) break;
    const position = checkpoint.dropped + i + 1;
    lines.push({ id: entry.hash, kind: 'entry', position, entry });
    after = { position, hash: entry.hash };
  }
  return lines.length ? { lines, after } : undefined;
}

export function toJsonLines(lines: readonly ForwardLine[]): string {
  return lines.map((line) => JSON.stringify(line)).join('\n') + '\n';
}
