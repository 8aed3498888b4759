/**
 * Ten thousand malformed, truncated, wrong-typed, oversized and out-of-order frames at the
 * panel's tunnel over a real socket: the panel must not crash, must not run a tool for any of
 * them, and the same connection must stay usable. The run is seeded and prints its seed;
 * FUZZ_SEED replays one, FUZZ_FRAMES sends more.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startRawPeer, type Frame, type RawPeer } from '../peers/raw-acp-peer';
import { FakeToolServer } from './fake-tools';
import { panelClient, until } from './panel-client';

const ACP_ID = '1f0e2d3c-0000-4000-8000-0000000000f1';

/** Small deterministic PRNG so a failure can be replayed. */
function prng(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function whole(name: string, fallback: number, least: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < least) throw new Error(`${name} must be a whole number ≥ ${least}`);
  return value;
}

const SEED = whole('FUZZ_SEED', 20261129, 0);
const FRAMES = whole('FUZZ_FRAMES', 10_000, 10_000);

function junkValue(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * (depth > 2 ? 6 : 9));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return Math.floor(random() * 2 ** 53) * (random() < 0.5 ? -1 : 1);
    case 3:
      return random() * 1e308;
    case 4:
      return String.fromCharCode(
        ...Array.from({ length: Math.floor(random() * 20) }, () => Math.floor(random() * 0xffff)),
      );
    case 5:
      return '';
    case 6:
      return Array.from({ length: Math.floor(random() * 4) }, () => junkValue(random, depth + 1));
    case 7:
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, (_, i) => [`k${i}`, junkValue(random, depth + 1)]),
      );
    default:
      return {
        connectionId: junkValue(random, depth + 1),
        method: junkValue(random, depth + 1),
        params: junkValue(random, depth + 1),
      };
  }
}

function malformedFrame(random: () => number, connectionId: string, index: number): string {
  const id = 500_000 + index;
  const kinds = [
    () => '{"jsonrpc":"2.0","id":1,"method":"mcp/mess', // truncated
    () => 'not json at all \u0000\uffff',
    () => JSON.stringify(junkValue(random)),
    () => JSON.stringify([{ jsonrpc: '2.0', id, method: 'mcp/message' }]), // batch
    () => JSON.stringify({ jsonrpc: '1.0', id, method: 'mcp/message', params: { connectionId, method: 'tools/list' } }),
    () => JSON.stringify({ jsonrpc: '2.0', id: { nested: true }, method: 'mcp/message', params: {} }),
    () => JSON.stringify({ jsonrpc: '2.0', id, method: junkValue(random), params: junkValue(random) }),
    () => JSON.stringify({ jsonrpc: '2.0', id, method: 'mcp/message', params: junkValue(random) }),
    () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'mcp/message',
        params: {
          connectionId: junkValue(random),
          method: 'tools/call',
          params: { name: 'tabwright.echo', arguments: { text: 'FORBIDDEN' } },
        },
      }),
    () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'mcp/message',
        params: { connectionId, method: 'tools/call', params: junkValue(random) },
      }),
    () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'mcp/message',
        params: {
          connectionId,
          method: 'tools/call',
          params: { name: junkValue(random), arguments: { text: 'FORBIDDEN' } },
        },
      }),
    () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'mcp/message',
        params: {
          connectionId,
          method: 'tools/call',
          params: { name: 'tabwright.echo', arguments: junkValue(random) },
        },
      }),
    () => JSON.stringify({ jsonrpc: '2.0', id, method: 'mcp/connect', params: { acpId: junkValue(random) } }),
    () => JSON.stringify({ jsonrpc: '2.0', id, method: 'mcp/disconnect', params: junkValue(random) }),
    () => JSON.stringify({ jsonrpc: '2.0', method: 'mcp/cancel', params: junkValue(random) }),
    () => JSON.stringify({ jsonrpc: '2.0', method: 'mcp/message', params: junkValue(random) }), // notification
    () => JSON.stringify({ jsonrpc: '2.0', id: 900_000 + index, result: junkValue(random) }), // response nobody asked for
    () =>
      JSON.stringify({
        jsonrpc: '2.0',
        id: 900_000 + index,
        error: { code: junkValue(random), message: junkValue(random) },
      }),
    () => JSON.stringify({ jsonrpc: '2.0', id, method: 'session/update', params: junkValue(random) }),
    () =>
      JSON.stringify({
        jsonrpc: '2.0',
        method: 'session/update',
        params: { sessionId: 'raw-session', update: junkValue(random) },
      }),
    () => JSON.stringify({ jsonrpc: '2.0', id, method: 'session/request_permission', params: junkValue(random) }),
    () => '['.repeat(3000) + ']'.repeat(3000),
  ];
  return kinds[Math.floor(random() * kinds.length)]!();
}

describe('tunnel fuzz', () => {
  let peer: RawPeer;
  let server: FakeToolServer;
  let client: ReturnType<typeof panelClient>;

  beforeAll(async () => {
    peer = await startRawPeer();
    server = new FakeToolServer('tabwright');
    client = panelClient({ url: peer.url, servers: [{ acpId: ACP_ID, server }] });
    client.connection.enable();
    await until(() => client.recorded.sessions.length === 1);
  });
  afterAll(async () => {
    client.connection.disable();
    await peer.close();
  });

  it(`survives ${FRAMES} malformed frames, runs no tool for them, and stays usable`, async () => {
    // The SDK reports each frame it rejects on the console; count those instead of printing thousands.
    const complaints = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    console.log(`fuzz seed ${SEED} (replay with FUZZ_SEED=${SEED}), ${FRAMES} frames`);
    const started = performance.now();
    const random = prng(SEED);
    const connect = await peer.request('mcp/connect', { acpId: ACP_ID });
    const connectionId = (connect.result as { connectionId: string }).connectionId;
    const before = peer.inbound.length;
    let oversized = 0;
    for (let i = 0; i < FRAMES; i++) {
      if (i % 500 === 250) {
        oversized++;
        peer.sendRaw(
          JSON.stringify({
            jsonrpc: '2.0',
            id: 700_000 + i,
            method: 'mcp/message',
            params: {
              connectionId,
              method: 'tools/call',
              params: { name: 'tabwright.echo', arguments: { text: 'x'.repeat(2 * 1024 * 1024) } },
            },
          }),
        );
        continue;
      }
      peer.sendRaw(malformedFrame(random, connectionId, i));
      if (i % 200 === 0) await new Promise((r) => setImmediate(r));
    }
    // A valid call after the storm, on the same socket and connection.
    const valid = await peer.request('mcp/message', {
      connectionId,
      method: 'tools/call',
      params: { name: 'tabwright.echo', arguments: { text: 'still here' } },
    });
    expect(valid.result).toEqual({ content: [{ type: 'text', text: 'tabwright says still here' }] });
    const answered = peer.inbound.slice(before).filter((f: Frame) => 'result' in f || 'error' in f).length;
    const forbidden = server.calls.filter((call) => JSON.stringify(call.args).includes('FORBIDDEN'));
    const elapsed = Math.round(performance.now() - started);
    console.log(
      `fuzz seed ${SEED}: sent ${FRAMES} frames (${oversized} oversized) in ${elapsed} ms, panel answered ${answered}, ` +
        `tool runs ${server.calls.length} (of which from malformed frames: ${forbidden.length}), ` +
        `frames the client rejected with a console report ${complaints.mock.calls.length}, reconnects ${client.recorded.sessions.length - 1}`,
    );
    complaints.mockRestore();
    expect(forbidden).toEqual([]);
    expect(client.recorded.sessions).toHaveLength(1);
    expect(client.connection.status).toBe('connected');
  }, 120_000);
});
