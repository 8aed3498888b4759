import { afterEach, describe, expect, it } from 'vitest';
import { startSdkPeer, type SdkPeer } from '../peers/sdk-agent-peer';
import { panelClient, until } from './panel-client';

let peer: SdkPeer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

async function connectOnce(url: string, sessionId?: string) {
  const client = panelClient({ url, sessionId });
  client.connection.enable();
  await until(() => client.recorded.sessions.length === 1, 10_000, 'a session');
  return client;
}

describe('session lifecycle against a peer built on the ACP SDK', () => {
  it('resumes a known session when the agent can resume', async () => {
    peer = await startSdkPeer({ resume: true, load: true });
    const first = await connectOnce(peer.url);
    const id = first.sessionId!;
    first.connection.disable();
    const second = await connectOnce(peer.url, id);
    expect(second.recorded.sessions[0]).toEqual({ id, how: 'session/resume', note: undefined });
    expect(peer.sessionMethods).toEqual(['session/new', 'session/resume']);
    second.connection.disable();
  });

  it('loads when the agent can load but not resume', async () => {
    peer = await startSdkPeer({ load: true });
    const first = await connectOnce(peer.url);
    first.connection.disable();
    const second = await connectOnce(peer.url, first.sessionId);
    expect(second.recorded.sessions[0]!.how).toBe('session/load');
    expect(second.sessionId).toBe(first.sessionId);
    second.connection.disable();
  });

  it('takes the history and commands an agent replays while loading a stored session', async () => {
    peer = await startSdkPeer({ load: true, replayOnLoad: true });
    const first = await connectOnce(peer.url);
    first.connection.disable();
    const second = await connectOnce(peer.url, first.sessionId);
    expect(second.recorded.sessions[0]!.how).toBe('session/load');
    expect(second.recorded.updates.map((update) => update.sessionUpdate)).toEqual([
      'user_message_chunk',
      'agent_message_chunk',
      'available_commands_update',
    ]);
    second.connection.disable();
  });

  it('starts a new session when the agent can do neither', async () => {
    peer = await startSdkPeer({});
    const first = await connectOnce(peer.url);
    first.connection.disable();
    const second = await connectOnce(peer.url, first.sessionId);
    expect(second.recorded.sessions[0]!.how).toBe('session/new');
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(peer.sessionMethods).toEqual(['session/new', 'session/new']);
    second.connection.disable();
  });

  it('falls back to a new session, visibly, when the resume is refused', async () => {
    peer = await startSdkPeer({ resume: true });
    const client = await connectOnce(peer.url, 'a-session-the-agent-forgot');
    const session = client.recorded.sessions[0]!;
    expect(session.how).toBe('session/new');
    expect(session.note).toMatch(/no longer has the previous session .*a new one was started/);
    expect(peer.sessionMethods).toEqual(['session/resume', 'session/new']);
    client.connection.disable();
  });

  it('takes the slash commands an agent offers right after session/new, however soon they come', async () => {
    for (const afterMs of [0, 2, 10]) {
      peer = await startSdkPeer({ commandsAfterNewMs: afterMs });
      const client = panelClient({ url: peer.url, sessionWriteMs: 20 });
      const sessionsWhenOffered: number[] = [];
      const record = client.recorded.updates;
      record.push = (...updates) => {
        sessionsWhenOffered.push(client.recorded.sessions.length);
        return Array.prototype.push.apply(record, updates);
      };
      client.connection.enable();
      await until(() => record.length === 1, 10_000, 'the commands');
      // The session had started (and cleared what it knew) before its first update was taken.
      expect({ afterMs, sessionsWhenOffered }).toEqual({ afterMs, sessionsWhenOffered: [1] });
      client.connection.disable();
      await peer.close();
      peer = undefined;
    }
  });

  it('re-declares the served MCP servers on every new, resume and load', async () => {
    peer = await startSdkPeer({ resume: true });
    const fake = { name: 'tabwright', version: '1', list: () => [], call: async () => ({ content: [] }) };
    const servers = [{ acpId: '5c2b6f7e-0000-4000-8000-000000000001', server: fake }];
    const first = panelClient({ url: peer.url, servers });
    first.connection.enable();
    await until(() => first.recorded.sessions.length === 1);
    first.connection.disable();
    const second = panelClient({ url: peer.url, servers, sessionId: first.sessionId });
    second.connection.enable();
    await until(() => second.recorded.sessions.length === 1);
    expect(peer.declared.get(first.sessionId!)).toEqual([
      { type: 'acp', name: 'tabwright', serverId: '5c2b6f7e-0000-4000-8000-000000000001' },
    ]);
    expect(peer.sessionMethods).toEqual(['session/new', 'session/resume']);
    second.connection.disable();
  });
});

describe('turns', () => {
  it('streams a reply and reports the stop reason', async () => {
    peer = await startSdkPeer({});
    const client = await connectOnce(peer.url);
    client.connection.send('stream 5 5');
    await until(() => client.recorded.turns.length === 1);
    expect(client.text()).toBe('line 1\nline 2\nline 3\nline 4\nline 5\n');
    expect(client.recorded.turns[0]!.outcome).toEqual({ stopReason: 'end_turn' });
    expect(peer.received[0]!.messageId).toMatch(/^id-/);
    client.connection.disable();
  });

  it('batches messages typed while the agent is busy into one turn, in order', async () => {
    peer = await startSdkPeer({});
    const client = await connectOnce(peer.url);
    client.connection.send('stream 5 30');
    await until(() => client.recorded.updates.length > 0);
    client.connection.send('second');
    client.connection.send('third');
    await until(() => client.recorded.turns.length === 2);
    expect(peer.received.map((p) => p.text)).toEqual(['stream 5 30', 'second\n\nthird']);
    expect(client.recorded.started).toEqual([['stream 5 30'], ['second', 'third']]);
    client.connection.disable();
  });

  it('queues messages typed while disconnected and delivers them once connected', async () => {
    peer = await startSdkPeer({});
    const client = panelClient({ url: peer.url });
    client.connection.send('early one');
    client.connection.send('early two');
    client.connection.enable();
    await until(() => client.recorded.turns.length === 1);
    expect(peer.received.map((p) => p.text)).toEqual(['early one\n\nearly two']);
    client.connection.disable();
  });

  it('stop cancels the running turn and answers a pending permission request "cancelled"', async () => {
    peer = await startSdkPeer({});
    const client = await connectOnce(peer.url);
    client.connection.send('ask delete everything');
    await until(() => client.recorded.permissions.length === 1);
    await client.connection.cancel();
    await until(() => client.recorded.turns.length === 1);
    expect(client.text()).toBe('answer: cancelled');
    client.connection.send('stream 200 10');
    await until(() => client.recorded.updates.length > 3);
    await client.connection.cancel();
    await until(() => client.recorded.turns.length === 2);
    expect(client.recorded.turns[1]!.outcome).toEqual({ stopReason: 'cancelled' });
    expect(client.text().split('\n').length).toBeLessThan(100);
    client.connection.disable();
  });

  it('round-trips a permission request and remembers "always" per tool', async () => {
    peer = await startSdkPeer({});
    const client = panelClient({ url: peer.url, answerPermissions: 'always' });
    client.connection.enable();
    client.connection.send('ask open the door');
    await until(() => client.recorded.turns.length === 1);
    expect(client.text()).toBe('answer: always');
    expect(client.remembered.get('open the door')).toBe('allow_always');
    client.connection.send('ask open the door');
    await until(() => client.recorded.turns.length === 2);
    expect(client.recorded.permissions).toHaveLength(1);
    expect(client.text()).toBe('answer: alwaysanswer: always');
    client.connection.disable();
  });

  it('refuses a message over the 1 MiB frame limit locally, with a reason', async () => {
    peer = await startSdkPeer({});
    const client = await connectOnce(peer.url);
    client.connection.send('x'.repeat(1024 * 1024 + 10));
    await until(() => client.recorded.turns.length === 1);
    expect(client.recorded.turns[0]!.outcome).toEqual({ error: expect.stringMatching(/at most 1024 KiB/) });
    expect(peer.received).toHaveLength(0);
    client.connection.send('small');
    await until(() => client.recorded.turns.length === 2);
    expect(peer.received.map((p) => p.text)).toEqual(['small']);
    client.connection.disable();
  });
});

describe('a broker that answers but refuses the session', () => {
  it('says what the broker said, instead of "closed"', async () => {
    const { startRawPeer } = await import('../peers/raw-acp-peer');
    const raw = await startRawPeer({ refuseSessions: 'At most 8 acp MCP servers per session' });
    const client = panelClient({ url: raw.url });
    client.connection.enable();
    await until(
      () => client.recorded.statuses.some(([, detail]) => /refused to start a session/.test(detail ?? '')),
      10_000,
    );
    expect(client.recorded.statuses.find(([, d]) => /refused/.test(d ?? ''))![1]).toMatch(/At most 8 acp MCP servers/);
    client.connection.disable();
    await raw.close();
  });
});

describe('a broker that never answers the handshake', () => {
  it('retries on the usual back-off and says so, without parking the agent as refused', async () => {
    const { startRawPeer } = await import('../peers/raw-acp-peer');
    const raw = await startRawPeer({ ignoreSessions: true });
    // A refusal would wait capMs (5 s) after its second strike; back-off from 20 ms does not.
    const client = panelClient({
      url: raw.url,
      timing: { handshakeTimeoutMs: 150, backoff: { baseMs: 20, capMs: 5_000 } },
    });
    client.connection.enable();
    const attempts = () => raw.inbound.filter((frame) => frame.method === 'session/new').length;
    await until(() => attempts() >= 4, 4_000, 'four handshake attempts');
    expect(client.recorded.statuses.map(([status]) => status)).not.toContain('unreachable');
    expect(client.recorded.notices.some((n) => /did not answer the handshake in time; reconnecting/.test(n))).toBe(
      true,
    );
    client.connection.disable();
    await raw.close();
  });
});
