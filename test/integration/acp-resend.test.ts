/**
 * Against a broker that does not drop repeated prompts, a prompt interrupted by a dead socket is
 * sent again only if no update for it had arrived: never say the same thing twice to an agent
 * that already started answering.
 */
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

async function setup(options: { claimDedup?: boolean } = {}) {
  peer = await startSdkPeer({ resume: true, ...options });
  proxy = await startTcpProxy(Number(new URL(peer.url).port));
  const client = panelClient({ url: proxy.urlFor(peer.url) });
  client.connection.enable();
  await until(() => client.recorded.sessions.length === 1);
  return { peer, proxy, client };
}

describe('re-sending after a dropped socket, without broker de-duplication', () => {
  it('re-sends a prompt the agent had not started answering, with the same message id', async () => {
    const { peer, proxy, client } = await setup();
    client.connection.send('silent 400');
    await until(() => peer.received.length === 1);
    proxy.dropAll();
    await until(() => client.recorded.sessions.length === 2);
    await until(() => peer.received.length === 2);
    expect(peer.received[1]!.text).toBe('silent 400');
    expect(peer.received[1]!.messageId).toBe(peer.received[0]!.messageId);
    await until(() => client.recorded.turns.length === 1);
    expect(client.recorded.turns[0]!.outcome).toEqual({ stopReason: 'end_turn' });
    client.connection.disable();
  });

  it('does not re-send a prompt the agent was answering, and says the reply may be incomplete', async () => {
    const { peer, proxy, client } = await setup();
    client.connection.send('stream 50 30');
    await until(() => client.recorded.updates.length >= 2);
    proxy.dropAll();
    await until(() => client.recorded.turns.length === 1);
    expect(client.recorded.turns[0]!.outcome).toEqual({
      error: expect.stringMatching(/reply may be incomplete/),
      interrupted: 'dropped',
    });
    await until(() => client.recorded.sessions.length === 2);
    client.connection.send('next');
    await until(() => client.recorded.turns.length === 2);
    expect(peer.received.map((p) => p.text)).toEqual(['stream 50 30', 'next']);
    client.connection.disable();
  });
});

describe('a reply whose socket dies, with a broker that drops repeats', () => {
  it('is marked interrupted at once and, when its session does not come back, ends without being sent again', async () => {
    const { peer, proxy, client } = await setup({ claimDedup: true });
    client.connection.send('stream 50 30');
    await until(() => client.recorded.updates.length >= 2);
    const batchId = client.connection.outbox.inflight!.id;
    // The broker restarted without its state: the session is gone.
    peer.forgetSessions();
    proxy.dropAll();
    await until(() => client.recorded.interrupted.length === 1, 2_000, 'the reply marked interrupted');
    expect(client.recorded.interrupted).toEqual([batchId]);
    await until(() => client.recorded.turns.length === 1);
    expect(client.recorded.sessions[1]!.how).toBe('session/new');
    expect(client.recorded.turns[0]).toEqual({
      batchId,
      outcome: { error: expect.stringMatching(/not sent again/), interrupted: 'new-session' },
    });
    client.connection.send('next');
    await until(() => client.recorded.turns.length === 2);
    expect(peer.received.map((p) => p.text)).toEqual(['stream 50 30', 'next']);
    client.connection.disable();
  });

  it('is sent again with its message id when the session resumes, and the same turn goes on', async () => {
    const { peer, proxy, client } = await setup({ claimDedup: true });
    client.connection.send('stream 20 30');
    await until(() => client.recorded.updates.length >= 2);
    const batchId = client.connection.outbox.inflight!.id;
    proxy.dropAll();
    await until(() => client.recorded.interrupted.length === 1, 2_000, 'the reply marked interrupted');
    await until(() => client.recorded.sessions.length === 2);
    expect(client.recorded.sessions[1]!.how).toBe('session/resume');
    await until(() => client.recorded.turns.length === 1, 10_000, 'the turn to end');
    expect(client.recorded.turns[0]).toEqual({ batchId, outcome: { stopReason: 'end_turn' } });
    expect(peer.received.map((p) => p.messageId)).toEqual([peer.received[0]!.messageId, peer.received[0]!.messageId]);
    client.connection.disable();
  });
});
