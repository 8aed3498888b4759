import { describe, expect, it } from 'vitest';
import { chainEntries, GENESIS, START, type AuditCheckpoint } from '../mcp-server/gates/audit-chain';
import type { AuditEntry } from '../mcp-server/gates/types';
import { nextBatch, NO_CURSOR, toJsonLines, waitingCount } from './plan';

const entry = (n: number): AuditEntry => ({
  id: `e${n}`,
  time: 1_000 + n,
  agent: 'A',
  server: 'tabwright',
  tool: 'tabs',
  origin: '',
  args: {},
  outcome: 'ok',
  durationMs: 1,
});

async function log(count: number, dropped = 0) {
  const all = await chainEntries(
    GENESIS,
    Array.from({ length: count }, (_, i) => entry(i + 1)),
  );
  const checkpoint: AuditCheckpoint = dropped ? { dropped, hash: all[dropped - 1]!.hash! } : START;
  return { all, entries: all.slice(dropped), checkpoint };
}

describe('nextBatch', () => {
  it('sends the whole log from the start, in chain order, each line identified by its hash', async () => {
    const { entries, checkpoint } = await log(3);
    const batch = nextBatch(entries, checkpoint, NO_CURSOR, 10)!;
    expect(batch.lines.map((l) => l.id)).toEqual(entries.map((e) => e.hash));
    expect(batch.lines.map((l) => (l.kind === 'entry' ? l.position : 0))).toEqual([1, 2, 3]);
    expect(batch.after).toEqual({ position: 3, hash: entries[2]!.hash });
  });

  it('cuts batches at the size and goes on after the acknowledged one', async () => {
    const { entries, checkpoint } = await log(5);
    const first = nextBatch(entries, checkpoint, NO_CURSOR, 2)!;
    expect(first.lines.map((l) => l.id)).toEqual([entries[0]!.hash, entries[1]!.hash]);
    const second = nextBatch(entries, checkpoint, first.after, 2)!;
    expect(second.lines.map((l) => l.id)).toEqual([entries[2]!.hash, entries[3]!.hash]);
    expect(waitingCount(entries, checkpoint, second.after)).toBe(1);
    const last = nextBatch(entries, checkpoint, second.after, 2)!;
    expect(nextBatch(entries, checkpoint, last.after, 2)).toBeUndefined();
    expect(waitingCount(entries, checkpoint, last.after)).toBe(0);
  });

  it('says what the bound dropped before it was sent, linked to both sides of the gap', async () => {
    const { all, entries, checkpoint } = await log(10, 6);
    const acknowledged = { position: 2, hash: all[1]!.hash! };
    const batch = nextBatch(entries, checkpoint, acknowledged, 3)!;
    expect(batch.lines[0]).toEqual({
      id: 'dropped:3-6',
      kind: 'dropped',
      first: 3,
      last: 6,
      count: 4,
      prev: all[1]!.hash,
      next: checkpoint.hash,
    });
    expect(batch.lines.slice(1).map((l) => l.id)).toEqual([all[6]!.hash, all[7]!.hash]);
    expect(entries[0]!.prev).toBe(checkpoint.hash);
    expect(waitingCount(entries, checkpoint, acknowledged)).toBe(4);
  });

  it('reports a gap on its own when nothing was kept after it (the log was cleared)', async () => {
    const { all } = await log(4);
    const cleared = { dropped: 4, hash: all[3]!.hash! };
    const batch = nextBatch([], cleared, { position: 1, hash: all[0]!.hash! }, 5)!;
    expect(batch.lines).toEqual([expect.objectContaining({ kind: 'dropped', first: 2, last: 4, count: 3 })]);
    expect(batch.after).toEqual({ position: 4, hash: cleared.hash });
    expect(nextBatch([], cleared, batch.after, 5)).toBeUndefined();
  });

  it('starts over from the stored log when the cursor belongs to another log', async () => {
    const { entries, checkpoint } = await log(3);
    const stale = { position: 2, hash: 'f'.repeat(64) };
    expect(nextBatch(entries, checkpoint, stale, 10)!.lines).toHaveLength(3);
    expect(nextBatch(entries, checkpoint, { position: 40, hash: 'f'.repeat(64) }, 10)!.lines).toHaveLength(3);
  });

  it('holds back entries not linked yet', async () => {
    const { entries, checkpoint } = await log(2);
    const batch = nextBatch([...entries, entry(3)], checkpoint, NO_CURSOR, 10)!;
    expect(batch.lines).toHaveLength(2);
  });

  it('writes one JSON object per line', async () => {
    const { entries, checkpoint } = await log(2);
    const body = toJsonLines(nextBatch(entries, checkpoint, NO_CURSOR, 10)!.lines);
    expect(body.endsWith('\n')).toBe(true);
    expect(
      body
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).entry.id),
    ).toEqual(['e1', 'e2']);
  });
});
