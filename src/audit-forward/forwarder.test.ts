import { describe, expect, it } from 'vitest';
import { AuditLog } from '../mcp-server/gates/audit-log';
import type { AuditEntry } from '../mcp-server/gates/types';
import { MemoryArea } from '../shared/stores';
import { FORWARD_KEY, forwardWaiting, readForwarding, type ForwardState } from './forwarder';
import type { ForwardLine } from './plan';
import { forwardStatus } from './status';

const target = {
  on: true,
  url: 'https://logs.example.com/in',
  origin: 'https://logs.example.com',
  token: 'tok',
  batchSize: 2,
} as const;

const entry = (n: number): AuditEntry => ({
  time: n,
  agent: 'A',
  server: 'tabwright',
  tool: `tool${n}`,
  origin: '',
  args: {},
  outcome: 'ok',
  durationMs: 1,
});

/** A collector behind a fake fetch: up or down, recording what it was sent. */
function collector() {
  const received: ForwardLine[] = [];
  const requests: RequestInit[] = [];
  let answer: number | 'unreachable' = 200;
  const fetcher = (async (_url: string, init: RequestInit) => {
    requests.push(init);
    if (answer === 'unreachable') throw new TypeError('Failed to fetch');
    if (answer >= 200 && answer < 300) {
      for (const line of String(init.body).trim().split('\n')) received.push(JSON.parse(line));
    }
    return new Response(null, { status: answer });
  }) as typeof fetch;
  return {
    received,
    requests,
    fetcher,
    set: (next: number | 'unreachable') => (answer = next),
  };
}

async function written(area: MemoryArea, count: number, from = 1, limit = 5_000) {
  const log = new AuditLog(area, { limit });
  await log.load();
  for (let n = from; n < from + count; n++) log.append(entry(n));
  await log.flushed();
}

const tools = (lines: ForwardLine[]) => lines.map((line) => (line.kind === 'entry' ? line.entry.tool : line.id));

describe('forwardWaiting', () => {
  it('sends everything in batches, in order, with the bearer token as JSON Lines', async () => {
    const area = new MemoryArea();
    const c = collector();
    await written(area, 5);
    let now = 100;
    expect(await forwardWaiting(target, { area, fetch: c.fetcher, now: () => now++ })).toBeUndefined();
    expect(tools(c.received)).toEqual(['tool1', 'tool2', 'tool3', 'tool4', 'tool5']);
    expect(c.requests).toHaveLength(3);
    expect(c.requests[0]!.headers).toEqual({ Authorization: 'Bearer tok', 'Content-Type': 'application/x-ndjson' });
    const state = area.data.get(FORWARD_KEY) as ForwardState;
    expect(state).toMatchObject({ url: target.url, failures: 0, cursor: { position: 5 } });
    expect(state.lastSentAt).toBeGreaterThanOrEqual(100);
    expect(forwardStatus(target, await readForwarding(area))).toMatchObject({ kind: 'on', waiting: 0 });
  });

  it('backs off while the collector is down, keeps the queue, and resends nothing acknowledged', async () => {
    const area = new MemoryArea();
    const c = collector();
    let now = 1_000;
    const deps = { area, fetch: c.fetcher, now: () => now, random: () => 1 };
    await written(area, 3);
    c.set(200);
    await forwardWaiting({ ...target, batchSize: 2 }, deps);
    await written(area, 2, 4);
    c.set('unreachable');
    expect(await forwardWaiting(target, deps)).toBe(2_000);
    c.set(503);
    // A wake during the wait (a new entry) does not send.
    expect(await forwardWaiting(target, deps)).toBe(2_000);
    now = 2_000;
    expect(await forwardWaiting(target, deps)).toBe(4_000);
    expect(forwardStatus(target, await readForwarding(area))).toEqual({
      kind: 'on',
      origin: target.origin,
      waiting: 2,
      lastSentAt: 1_000,
      lastError: { kind: 'status', status: 503 },
    });
    now = 4_000;
    c.set(200);
    expect(await forwardWaiting(target, deps)).toBeUndefined();
    expect(tools(c.received)).toEqual(['tool1', 'tool2', 'tool3', 'tool4', 'tool5']);
    expect(area.data.get(FORWARD_KEY)).not.toHaveProperty('lastError');
  });

  it('resends a batch the collector took but did not acknowledge, under the same ids', async () => {
    const area = new MemoryArea();
    const c = collector();
    await written(area, 2);
    let now = 0;
    const fetcher = (async (url: string, init: RequestInit) => {
      await c.fetcher(url, init);
      return new Response(null, { status: now === 0 ? 500 : 204 });
    }) as typeof fetch;
    await forwardWaiting(target, { area, fetch: fetcher, now: () => now });
    now = 10_000;
    await forwardWaiting(target, { area, fetch: fetcher, now: () => now });
    const [first, second] = c.received.map((l) => l.id);
    expect(c.received.map((l) => l.id)).toEqual([first, second, first, second]);
    expect(tools(c.received)).toEqual(['tool1', 'tool2', 'tool1', 'tool2']);
  });

  it('says what the bound dropped while the collector was down', async () => {
    const area = new MemoryArea();
    const c = collector();
    await written(area, 2, 1, 3);
    await forwardWaiting(target, { area, fetch: c.fetcher, now: () => 0 });
    await written(area, 4, 3, 3);
    await forwardWaiting({ ...target, batchSize: 10 }, { area, fetch: c.fetcher, now: () => 0 });
    expect(tools(c.received)).toEqual(['tool1', 'tool2', 'dropped:3-3', 'tool4', 'tool5', 'tool6']);
  });

  it('starts a new collector from the beginning', async () => {
    const area = new MemoryArea();
    const c = collector();
    await written(area, 2);
    await forwardWaiting(target, { area, fetch: c.fetcher, now: () => 0 });
    await forwardWaiting({ ...target, url: 'https://other.example.com/' }, { area, fetch: c.fetcher, now: () => 0 });
    expect(tools(c.received)).toEqual(['tool1', 'tool2', 'tool1', 'tool2']);
  });
});
