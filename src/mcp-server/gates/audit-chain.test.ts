import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  chainEntries,
  compareWithCopy,
  exportLines,
  GENESIS,
  parseExport,
  START,
  verifyChain,
} from './audit-chain';
import { AUDIT_KEY, AuditLog, CHECKPOINT_KEY } from './audit-log';
import type { AuditEntry } from './types';
import { MemoryArea } from '../../shared/stores';

const entry = (n: number, more: Partial<AuditEntry> = {}): AuditEntry => ({
  id: `id-${n}`,
  time: 1_700_000_000_000 + n,
  agent: 'Demo',
  server: 'tabwright',
  tool: 'click',
  origin: 'https://shop.example',
  args: { target: 'button "Place order"' },
  outcome: 'ok',
  durationMs: 12,
  ...more,
});

async function written(count: number, options: { limit?: number } = {}) {
  const area = new MemoryArea();
  const log = new AuditLog(area, options);
  for (let n = 1; n <= count; n++) log.append(entry(n));
  await log.flushed();
  return { area, log, stored: () => area.data.get(AUDIT_KEY) as AuditEntry[] };
}

describe('canonicalJson', () => {
  it('is the same for the same content whatever the key order', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: 'x' } })).toBe(
      canonicalJson({ a: { c: 'x', d: [1, { e: 3, f: 2 }] }, b: 1 }),
    );
    expect(canonicalJson({ a: undefined, b: 1 })).toBe('{"b":1}');
  });
});

describe('the audit chain', () => {
  it('links each written entry to the one before, from the start', async () => {
    const { stored } = await written(3);
    const [first, second, third] = stored();
    expect(first!.prev).toBe(GENESIS);
    expect(second!.prev).toBe(first!.hash);
    expect(third!.prev).toBe(second!.hash);
    expect(await verifyChain(stored(), START)).toEqual({ ok: true, entries: 3, checkpoint: START });
  });

  it('names an edited entry', async () => {
    const { stored } = await written(4);
    const entries = structuredClone(stored());
    entries[2]!.outcome = 'refused:confirmation';
    expect(await verifyChain(entries, START)).toMatchObject({ ok: false, position: 3, id: 'id-3', reason: 'edited' });
  });

  it('names the link where an entry was removed', async () => {
    const { stored } = await written(4);
    const entries = stored().filter((e) => e.id !== 'id-2');
    expect(await verifyChain(entries, START)).toMatchObject({ ok: false, position: 2, id: 'id-3', reason: 'unlinked' });
  });

  it('names the link where entries were reordered', async () => {
    const { stored } = await written(4);
    const entries = [...stored()];
    [entries[1], entries[2]] = [entries[2]!, entries[1]!];
    expect(await verifyChain(entries, START)).toMatchObject({ ok: false, position: 2, id: 'id-3', reason: 'unlinked' });
  });

  it('names an entry edited together with its own hash at the next link', async () => {
    const { stored } = await written(3);
    const entries = structuredClone(stored());
    const [relinked] = await chainEntries(entries[0]!.hash!, [{ ...entries[1]!, agent: 'Someone else' }]);
    entries[1] = relinked!;
    expect(await verifyChain(entries, START)).toMatchObject({ ok: false, position: 3, reason: 'unlinked' });
  });

  it('verifies a log that dropped its oldest entries from its checkpoint', async () => {
    const { area, log, stored } = await written(7, { limit: 3 });
    expect(stored().map((e) => e.id)).toEqual(['id-5', 'id-6', 'id-7']);
    const checkpoint = area.data.get(CHECKPOINT_KEY) as { dropped: number; hash: string };
    expect(checkpoint.dropped).toBe(4);
    expect(checkpoint.hash).toBe(stored()[0]!.prev);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 3, checkpoint });
    // Without the checkpoint the first kept entry does not follow the start.
    expect(await verifyChain(stored(), START)).toMatchObject({ ok: false, position: 1, reason: 'unlinked' });
  });

  it('links entries stored before the chain existed at the next write', async () => {
    const area = new MemoryArea();
    await area.set({ [AUDIT_KEY]: [entry(1), entry(2)] });
    const log = new AuditLog(area);
    await log.load();
    log.append(entry(3));
    await log.flushed();
    expect((area.data.get(AUDIT_KEY) as AuditEntry[]).map((e) => e.id)).toEqual(['id-1', 'id-2', 'id-3']);
    expect(await log.verify()).toMatchObject({ ok: true, entries: 3 });
  });

  it('exports the checkpoint and the chain, and reads the export back', async () => {
    const { log } = await written(5, { limit: 2 });
    const text = await log.exportChain();
    const lines = text.trimEnd().split('\n');
    expect(JSON.parse(lines[0]!)).toEqual({ checkpoint: log.checkpoint });
    const parsed = parseExport(text);
    if (!('entries' in parsed)) throw new Error(parsed.error);
    expect(parsed.entries.map((e) => e.id)).toEqual(['id-4', 'id-5']);
    expect(await verifyChain(parsed.entries, parsed.checkpoint)).toMatchObject({ ok: true, entries: 2 });
    expect(parseExport('{"checkpoint":{"dropped":0,"hash":"x"}}\nnot json')).toEqual({
      error: 'line 2 is not JSON.',
      position: 2,
    });
  });

  it('catches a chain recomputed after a removal by comparing with the collector’s copy', async () => {
    const { stored } = await written(4);
    const copy = structuredClone(stored());
    // Someone removes entry 2 and recomputes every hash: the chain verifies on its own …
    const forged = await chainEntries(
      GENESIS,
      stored().filter((e) => e.id !== 'id-2'),
    );
    expect(await verifyChain(forged, START)).toMatchObject({ ok: true });
    // … but no longer matches what was forwarded.
    expect(compareWithCopy(forged, copy)).toMatchObject({ ok: false, id: 'id-2' });
    const edited = await chainEntries(GENESIS, [stored()[0]!, { ...stored()[1]!, outcome: 'error' }]);
    expect(compareWithCopy(edited, copy)).toMatchObject({ ok: false, id: 'id-2' });
    expect(compareWithCopy(stored(), copy)).toEqual({ ok: true, compared: 4 });
  });

  it('reads what a collector received by forwarding: each entry once, the dropped-entries line left out', async () => {
    const { stored } = await written(3);
    const [a, b, c] = stored();
    const line = (e: AuditEntry, position: number) => JSON.stringify({ id: e.hash, kind: 'entry', position, entry: e });
    const received = [
      JSON.stringify({ id: 'dropped:1-4', kind: 'dropped', first: 1, last: 4, count: 4, prev: GENESIS, next: 'x' }),
      line(a!, 5),
      line(b!, 6),
      line(a!, 5),
      line(b!, 6),
      line(c!, 7),
    ].join('\n');
    const parsed = parseExport(received);
    if (!('entries' in parsed)) throw new Error(parsed.error);
    expect(parsed.entries).toEqual(stored());
    const forged = await chainEntries(GENESIS, [a!, c!]);
    expect(compareWithCopy(forged, parsed.entries)).toMatchObject({ ok: false, id: 'id-2' });
  });

  it('writes an export whose lines are each one JSON value', () => {
    const text = exportLines([entry(1, { args: { text: 'a\nb' } })], START);
    expect(
      text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line)),
    ).toHaveLength(2);
  });
});
