import { describe, expect, it } from 'vitest';
import type { AuditEntry } from './types';
import { AUDIT_KEY, AuditLog, filterAudit, type Exclusive } from './audit-log';
import { MemoryArea } from '../../shared/stores';

const entry = (time: number, more: Partial<AuditEntry> = {}): AuditEntry => ({
  time,
  agent: 'A',
  server: 'tabwright',
  tool: 'snapshot',
  origin: 'https://app.example',
  args: {},
  outcome: 'ok',
  durationMs: 3,
  ...more,
});

/** One lock shared by every log on the area, as the Web Locks API gives the panels. */
function sharedLock(): Exclusive {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: () => Promise<T>) => {
    const run = tail.then(work, work);
    tail = run.catch(() => undefined);
    return run;
  };
}

describe('AuditLog', () => {
  it('persists entries and reads them back after a reload', async () => {
    const area = new MemoryArea();
    const log = new AuditLog(area);
    log.append(entry(1));
    log.append(entry(2, { outcome: 'refused:act-mode' }));
    await log.flushed();
    const reopened = new AuditLog(area);
    await reopened.load();
    expect(reopened.entries.map((e) => [e.time, e.outcome])).toEqual([
      [1, 'ok'],
      [2, 'refused:act-mode'],
    ]);
    expect(new Set(reopened.entries.map((e) => e.id)).size).toBe(2);
  });

  it('drops the oldest entries beyond its bound, in memory and in storage', async () => {
    const area = new MemoryArea();
    const log = new AuditLog(area, { limit: 3 });
    for (let t = 1; t <= 5; t++) log.append(entry(t));
    expect(log.entries.map((e) => e.time)).toEqual([3, 4, 5]);
    await log.flushed();
    expect((area.data.get(AUDIT_KEY) as AuditEntry[]).map((e) => e.time)).toEqual([3, 4, 5]);
  });

  it('merges what two panels write instead of one overwriting the other', async () => {
    const area = new MemoryArea();
    const exclusive = sharedLock();
    const left = new AuditLog(area, { exclusive });
    const right = new AuditLog(area, { exclusive });
    await Promise.all([left.load(), right.load()]);
    for (let t = 0; t < 20; t++) (t % 2 ? left : right).append(entry(t, { agent: t % 2 ? 'L' : 'R' }));
    await Promise.all([left.flushed(), right.flushed()]);
    const stored = area.data.get(AUDIT_KEY) as AuditEntry[];
    // Stored in the order the writes happened, which is the chain's order: each entry once.
    expect(stored.map((e) => e.time).sort((a, b) => a - b)).toEqual([...Array(20).keys()]);
    expect(await left.verify()).toMatchObject({ ok: true, entries: 20 });
    await left.load();
    expect(left.entries).toHaveLength(20);
  });

  it('keeps entries that could not be written and writes them with the next append', async () => {
    const area = new MemoryArea();
    let fail = true;
    const flaky = {
      ...area,
      get: area.get.bind(area),
      remove: area.remove.bind(area),
      set: async (items: Record<string, unknown>) => {
        if (fail) throw new Error('quota');
        await area.set(items);
      },
    };
    const log = new AuditLog(flaky);
    log.append(entry(1));
    await log.flushed();
    expect(area.data.has(AUDIT_KEY)).toBe(false);
    fail = false;
    log.append(entry(2));
    await log.flushed();
    expect((area.data.get(AUDIT_KEY) as AuditEntry[]).map((e) => e.time)).toEqual([1, 2]);
  });

  it('ignores malformed stored entries rather than failing to open', async () => {
    const area = new MemoryArea();
    await area.set({ [AUDIT_KEY]: [entry(1), { nonsense: true }, 'x', null] });
    const log = new AuditLog(area);
    await log.load();
    expect(log.entries).toHaveLength(1);
  });

  it('exports JSON Lines, one parseable entry per line', () => {
    const log = new AuditLog(new MemoryArea());
    log.append(entry(1, { args: { text: 'line\nbreak' } }));
    log.append(entry(2));
    const lines = log.toJsonLines().trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!).args.text).toBe('line\nbreak');
    expect(log.toJsonLines([])).toBe('');
  });

  it('clears', async () => {
    const area = new MemoryArea();
    const log = new AuditLog(area);
    log.append(entry(1));
    await log.clear();
    expect(log.entries).toEqual([]);
    expect(area.data.get(AUDIT_KEY)).toEqual([]);
    // What was cleared is counted, and the chain goes on from where it ended.
    expect(log.checkpoint.dropped).toBe(1);
    log.append(entry(2));
    expect(await log.verify()).toMatchObject({ ok: true, entries: 1 });
  });
});

describe('filterAudit', () => {
  const entries = [
    entry(1, { agent: 'A', tool: 'click', outcome: 'ok', args: { ref: 'e1' } }),
    entry(2, { agent: 'B', tool: 'click', outcome: 'refused:confirmation', detail: 'denied' }),
    entry(3, { agent: 'A', tool: 'snapshot', outcome: 'error', origin: 'https://other.example' }),
    entry(4, { agent: 'A', tool: 'type', outcome: 'cancelled' }),
  ];
  const times = (query: Parameters<typeof filterAudit>[1]) => filterAudit(entries, query).map((e) => e.time);

  it('filters by agent, tool, outcome and free text', () => {
    expect(times({})).toEqual([1, 2, 3, 4]);
    expect(times({ agent: 'A' })).toEqual([1, 3, 4]);
    expect(times({ tool: 'click' })).toEqual([1, 2]);
    expect(times({ outcome: 'refused' })).toEqual([2]);
    expect(times({ outcome: 'cancelled' })).toEqual([4]);
    expect(times({ text: 'OTHER.example' })).toEqual([3]);
    expect(times({ text: 'e1' })).toEqual([1]);
    expect(times({ agent: 'A', outcome: 'ok' })).toEqual([1]);
  });
});
