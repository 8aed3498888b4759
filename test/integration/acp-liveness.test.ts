import { afterEach, describe, expect, it } from 'vitest';
import { startSdkPeer, type SdkPeer } from '../peers/sdk-agent-peer';
import { panelClient, until } from './panel-client';
import { startTcpProxy, type TcpProxy } from './tcp-proxy';

let peer: SdkPeer | undefined;
let proxy: TcpProxy | undefined;
afterEach(async () => {
  await proxy?.close();
  await peer?.close();
  proxy = peer = undefined;
});

const fast = { heartbeatMs: 100, probeTimeoutMs: 100 };

describe('liveness', () => {
  it('detects a half-open socket (the peer stops reading) and recovers on a new one', async () => {
    peer = await startSdkPeer({ resume: true });
    proxy = await startTcpProxy(Number(new URL(peer.url).port));
    const client = panelClient({ url: proxy.urlFor(peer.url), timing: fast });
    client.connection.enable();
    await until(() => client.recorded.sessions.length === 1);
    const started = Date.now();
    proxy.freeze();
    await until(() => client.recorded.statuses.some(([s]) => s === 'unresponsive'), 5_000, 'unresponsive');
    await until(() => client.recorded.sessions.length === 2, 10_000, 'a second session');
    const recoveredMs = Date.now() - started;
    expect(client.recorded.sessions[1]!.how).toBe('session/resume');
    expect(client.recorded.statuses.at(-1)![0]).toBe('connected');
    client.connection.send('after recovery');
    await until(() => client.recorded.turns.length === 1);
    expect(client.text()).toBe('echo: after recovery');
    expect(recoveredMs).toBeGreaterThan(0);
    console.log(`half-open socket detected and replaced in ${recoveredMs} ms (heartbeat ${fast.heartbeatMs} ms)`);
    client.connection.disable();
  });

  it('never tears down a long streaming turn, however short the heartbeat', async () => {
    peer = await startSdkPeer({});
    const client = panelClient({ url: peer.url, timing: { heartbeatMs: 20, probeTimeoutMs: 20 } });
    client.connection.enable();
    await until(() => client.recorded.sessions.length === 1);
    client.connection.send('stream 60 25');
    await until(() => client.recorded.turns.length === 1, 15_000);
    expect(client.text().trim().split('\n')).toHaveLength(60);
    expect(client.recorded.turns[0]!.outcome).toEqual({ stopReason: 'end_turn' });
    expect(client.recorded.sessions).toHaveLength(1);
    client.connection.disable();
  });

  it('a turn that goes silent is marked unresponsive but kept, and finishes when frames return', async () => {
    peer = await startSdkPeer({});
    proxy = await startTcpProxy(Number(new URL(peer.url).port));
    const client = panelClient({ url: proxy.urlFor(peer.url), timing: fast });
    client.connection.enable();
    await until(() => client.recorded.sessions.length === 1);
    client.connection.send('stream 20 50');
    await until(() => client.recorded.updates.length >= 2);
    proxy.freeze();
    await until(() => client.recorded.statuses.some(([s]) => s === 'unresponsive'), 5_000, 'unresponsive');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(client.recorded.sessions).toHaveLength(1);
    proxy.thaw();
    await until(() => client.recorded.turns.length === 1, 10_000, 'the turn to end');
    expect(client.text().trim().split('\n')).toHaveLength(20);
    expect(client.recorded.statuses.at(-1)![0]).toBe('connected');
    expect(client.recorded.sessions).toHaveLength(1);
    client.connection.disable();
  });
});
