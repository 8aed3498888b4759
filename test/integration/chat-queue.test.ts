/**
 * Which agent still has to take which message, seen from everywhere the panel shows or keeps it:
 * the roster's count, the transcript's "queued" badge and the stored history. The real hub, chat
 * model and history store run against the local broker (and a raw peer that never answers), over
 * real WebSockets.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBroker, type RunningBroker } from '../../broker/server';
import { systemClock } from '../../src/acp/clock';
import { fetchProbe } from '../../src/acp/failure';
import { PermissionChoices } from '../../src/acp/permission-choices';
import { MAX_METHOD_FRAME_BYTES } from '../../src/contract/acp';
import { KillSwitch } from '../../src/mcp-server/gates/kill-switch';
import { AgentProfile } from '../../src/shared/settings';
import { MemoryArea, SessionIdStore, TokenStore } from '../../src/shared/stores';
import { AgentHub } from '../../src/sidepanel/agent-hub';
import { ChatModel, type AgentItem, type UserItem } from '../../src/sidepanel/chat-model';
import { messageText } from '../../src/sidepanel/chat-types';
import { HistoryStore, recordHistory } from '../../src/sidepanel/history';
import { startRawPeer, type RawPeer } from '../peers/raw-acp-peer';

const TOKEN = 'queue-token';
const WINDOW = 1;
let broker: RunningBroker | undefined;
let peer: RawPeer | undefined;
const hubs: AgentHub[] = [];

afterEach(async () => {
  for (const hub of hubs.splice(0)) hub.disconnectAll();
  await broker?.close();
  await peer?.close();
  broker = undefined;
  peer = undefined;
});

/** One panel: its chat model, hub and history, over a storage area a reopened panel shares. */
async function panel(area: MemoryArea) {
  let n = 0;
  const chat = new ChatModel(Date.now, `p${Math.random().toString(36).slice(2, 6)}`);
  const store = new HistoryStore(area, WINDOW);
  const loaded = await store.load();
  if (loaded.items.length) chat.restore(loaded.items);
  const history = recordHistory(chat, store, () => '', 5);
  const hub = new AgentHub({
    windowId: WINDOW,
    version: '0.0.0',
    chat,
    killSwitch: new KillSwitch(),
    tokens: new TokenStore(area),
    sessionIds: new SessionIdStore(area),
    permissions: new PermissionChoices(area),
    WebSocket: WebSocket as never,
    probe: fetchProbe,
    clock: systemClock,
    mintId: () => `m${++n}`,
    offers: { declare: () => [], serverId: () => undefined, ensureServerId: () => 'srv' },
    onPermission: () => undefined,
    onElicitation: () => undefined,
    roomMode: () => 'mention',
    loopGuardCap: () => 6,
  });
  hubs.push(hub);
  // Whatever the hub reports, the roster's count and the transcript's view of each queue agree.
  const disagreements: string[] = [];
  hub.onChange(() => {
    for (const view of hub.views()) {
      const shown = chat.queued().filter((item) => chat.queue()[view.profile.id]?.includes(item.id)).length;
      if (shown !== view.pending)
        disagreements.push(`${view.profile.name}: roster ${view.pending}, transcript ${shown}`);
    }
  });
  const add = async (id: string, url: string, enabled = true) => {
    await new TokenStore(area).set(id, TOKEN);
    const profile = AgentProfile.parse({ id, name: id, url, enabled });
    await hub.add(profile);
    return profile;
  };
  const stored = async () => {
    await history.flush();
    return (await store.load()).queue;
  };
  const replies = (agentId: string) =>
    chat.items.filter((item): item is AgentItem => item.kind === 'agent' && item.agentId === agentId && item.done);
  const connected = (id: string) => until(() => hub.views().find((v) => v.profile.id === id)?.status === 'connected');
  return { chat, hub, loaded, add, stored, replies, connected, disagreements };
}

async function until(check: () => boolean, ms = 10_000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

const user = (chat: ChatModel, text: string) =>
  chat.items.find((item): item is UserItem => item.kind === 'user' && item.text === text)!;
const rosterCount = (hub: AgentHub, id: string) => hub.views().find((v) => v.profile.id === id)!.pending;

describe('queued chat messages', () => {
  it('queues what is typed while the agent is busy and sends it as one turn, in order', async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    const p = await panel(new MemoryArea());
    await p.add('alpha', broker.url);
    await p.connected('alpha');
    p.hub.send('stream 10 60', ['alpha']);
    await until(() => p.hub.runtime('alpha')!.busy);
    p.hub.send('first', ['alpha']);
    p.hub.send('second', ['alpha']);
    const [first, second] = [user(p.chat, 'first'), user(p.chat, 'second')];
    expect([p.chat.isQueued(first.id), p.chat.isQueued(second.id)]).toEqual([true, true]);
    expect(rosterCount(p.hub, 'alpha')).toBe(2);
    expect(await p.stored()).toEqual({ alpha: [first.id, second.id] });

    await until(() => p.replies('alpha').length === 2);
    expect(messageText(p.replies('alpha')[1]!)).toBe('You said: first\n\nsecond');
    expect(p.chat.queued()).toEqual([]);
    expect(rosterCount(p.hub, 'alpha')).toBe(0);
    expect(await p.stored()).toEqual({});
    expect(p.disagreements).toEqual([]);
  });

  it('Stop ends the running turn; what was queued behind it still goes next', async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    const p = await panel(new MemoryArea());
    await p.add('alpha', broker.url);
    await p.connected('alpha');
    p.hub.send('stream 50 60', ['alpha']);
    await until(() => p.hub.runtime('alpha')!.busy);
    p.hub.send('after the stop', ['alpha']);
    await p.hub.stopAll();
    await until(() => p.replies('alpha').length === 2);
    expect(p.replies('alpha')[0]!.stopReason).toBe('cancelled');
    expect(messageText(p.replies('alpha')[1]!)).toBe('You said: after the stop');
    expect(p.chat.queued()).toEqual([]);
    expect(p.disagreements).toEqual([]);
  });

  it('one message to two agents: each takes it on its own, and it is queued until both have', async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    const p = await panel(new MemoryArea());
    await p.add('alpha', broker.url);
    await p.add('beta', broker.url, false);
    await p.connected('alpha');
    p.hub.send('hello both', ['alpha', 'beta']);
    const message = user(p.chat, 'hello both');
    await until(() => p.replies('alpha').length === 1);
    expect(p.chat.isQueued(message.id)).toBe(true);
    expect(p.chat.queue()).toEqual({ beta: [message.id] });
    expect([rosterCount(p.hub, 'alpha'), rosterCount(p.hub, 'beta')]).toEqual([0, 1]);
    expect(await p.stored()).toEqual({ beta: [message.id] });

    p.hub.reconnect('beta');
    await until(() => p.replies('beta').length === 1);
    expect(messageText(p.replies('beta')[0]!)).toBe('You said: hello both');
    expect(p.chat.isQueued(message.id)).toBe(false);
    expect(await p.stored()).toEqual({});
    expect(p.disagreements).toEqual([]);
  });

  it('survives a panel reload: the stored queue goes back to the agents that had not taken it, once', async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    const area = new MemoryArea();
    const before = await panel(area);
    await before.add('alpha', broker.url);
    await before.add('beta', broker.url, false);
    await before.connected('alpha');
    before.hub.send('for both', ['alpha', 'beta']);
    before.hub.send('for beta', ['beta']);
    await until(() => before.replies('alpha').length === 1);
    const ids = [user(before.chat, 'for both').id, user(before.chat, 'for beta').id];
    expect(await before.stored()).toEqual({ beta: ids });
    before.hub.disconnectAll();

    const after = await panel(area);
    expect(after.loaded.queue).toEqual({ beta: ids });
    await after.add('alpha', broker.url);
    await after.add('beta', broker.url);
    for (const [agentId, queued] of Object.entries(after.loaded.queue)) {
      after.hub.requeue(
        agentId,
        queued.map((id) => after.chat.items.find((item): item is UserItem => item.id === id)!),
      );
    }
    await until(() => after.replies('beta').length === 1);
    expect(messageText(after.replies('beta')[0]!)).toBe('You said: for both\n\nfor beta');
    await after.connected('alpha');
    // Alpha had taken its message before the reload: it is not sent to it again.
    expect(after.replies('alpha')).toHaveLength(1);
    expect(after.chat.queued()).toEqual([]);
    expect(await after.stored()).toEqual({});
    expect([...before.disagreements, ...after.disagreements]).toEqual([]);
  });

  it('a reconnect carries a message the agent never answered, and it is queued everywhere until it leaves', async () => {
    peer = await startRawPeer({ holdPrompts: true });
    const area = new MemoryArea();
    const p = await panel(area);
    const profile = await p.add('alpha', peer.url);
    await p.connected('alpha');
    p.hub.send('are you there?', ['alpha']);
    const message = user(p.chat, 'are you there?');
    await peer.waitFor((frame) => frame.method === 'session/prompt');
    expect(p.chat.isQueued(message.id)).toBe(false);

    // New connection settings, and the agent is off for now: the message waits in the new outbox.
    await p.hub.update({ ...profile, enabled: false }, true);
    expect(rosterCount(p.hub, 'alpha')).toBe(1);
    expect(p.chat.isQueued(message.id)).toBe(true);
    expect(await p.stored()).toEqual({ alpha: [message.id] });
    // So a reload now gives it back to the agent rather than losing it.
    expect((await new HistoryStore(area, WINDOW).load()).queue).toEqual({ alpha: [message.id] });
    expect(p.disagreements).toEqual([]);
  });

  it('a message too big for the broker is refused and not left queued', async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    const p = await panel(new MemoryArea());
    await p.add('alpha', broker.url);
    await p.connected('alpha');
    const big = 'x'.repeat(MAX_METHOD_FRAME_BYTES + 1);
    p.hub.send(big, ['alpha']);
    await until(() => p.chat.items.some((item) => item.kind === 'notice' && /KiB/.test(item.text)));
    expect(p.chat.isQueued(user(p.chat, big).id)).toBe(false);
    expect(await p.stored()).toEqual({});
    expect(p.disagreements).toEqual([]);
  });

  it('an agent removed from the panel takes its queue with it', async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    const p = await panel(new MemoryArea());
    await p.add('beta', broker.url, false);
    p.hub.send('never sent', ['beta']);
    const message = user(p.chat, 'never sent');
    expect(p.chat.isQueued(message.id)).toBe(true);
    await p.hub.remove('beta');
    expect(p.chat.isQueued(message.id)).toBe(false);
    expect(await p.stored()).toEqual({});
  });
});
