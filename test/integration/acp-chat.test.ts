import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBroker, type RunningBroker } from '../../broker/server';
import { AgentConnection, type AgentEvents, type ConnectionStatus } from '../../src/acp/agent-connection';
import { systemClock } from '../../src/acp/clock';
import { fetchProbe } from '../../src/acp/failure';
import { McpTunnel } from '../../src/mcp-server/tunnel';
import { startRawPeer, type RawPeer } from '../peers/raw-acp-peer';

let broker: RunningBroker | undefined;
let peer: RawPeer | undefined;
afterEach(async () => {
  await broker?.close();
  broker = undefined;
  await peer?.close();
  peer = undefined;
});

function recorder() {
  const statuses: Array<[ConnectionStatus, string | undefined]> = [];
  const chunks: string[] = [];
  const ended: unknown[] = [];
  const events: AgentEvents = {
    status: (s, d) => statuses.push([s, d]),
    session: () => undefined,
    turnStarted: () => undefined,
    turnInterrupted: () => undefined,
    update: (u) => {
      if (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text') chunks.push(u.content.text);
    },
    turnEnded: (_id, outcome) => ended.push(outcome),
    permission: () => undefined,
    elicitation: () => undefined,
    notice: () => undefined,
    queueChanged: () => undefined,
  };
  return { statuses, chunks, ended, events };
}

function connect(url: string, token: string, events: AgentEvents) {
  let n = 0;
  let session: string | undefined;
  return new AgentConnection({
    url,
    token,
    clientInfo: { name: 'tabwright', title: 'Tabwright', version: '0.0.0' },
    declarations: () => [],
    tunnel: new McpTunnel({ declared: () => [], mintId: () => `c${++n}` }),
    WebSocket: WebSocket as never,
    probe: fetchProbe,
    clock: systemClock,
    mintId: () => `m${++n}`,
    sessions: { get: async () => session, set: async (s) => void (session = s) },
    permissionMemory: { get: () => undefined, set: () => undefined },
    events,
  });
}

async function until(check: () => boolean, ms = 5_000) {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > ms) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('panel ACP client against the local broker', () => {
  it('chats: initialize, session/new, prompt, streamed reply', async () => {
    broker = await startBroker({ token: 'secret-token', chunkDelayMs: 0 });
    const r = recorder();
    const agent = connect(broker.url, 'secret-token', r.events);
    agent.enable();
    agent.send('hello there');
    await until(() => r.ended.length === 1);
    expect(r.ended[0]).toEqual({ stopReason: 'end_turn' });
    expect(r.chunks.join('')).toBe('You said: hello there');
    expect(r.chunks.length).toBeGreaterThan(0);
    expect(r.ended[0]).toEqual({ stopReason: 'end_turn' });
    agent.disable();
  });

  it('tells a wrong token from nothing listening', async () => {
    broker = await startBroker({ token: 'right' });
    const wrong = recorder();
    const a = connect(broker.url, 'wrong', wrong.events);
    a.enable();
    await until(() => wrong.statuses.some(([s]) => s === 'auth_failed'));
    a.disable();
    const url = broker.url;
    await broker.close();
    broker = undefined;
    const none = recorder();
    const b = connect(url, 'right', none.events);
    b.enable();
    await until(() => none.statuses.some(([s]) => s === 'unreachable'));
    b.disable();
  });

  // The panel merges close text chunks before the SDK sees them; a reply's last words must still
  // reach the panel before the turn's end, however the frames are spaced.
  it.each([
    ['in one burst', 0, 0],
    ['1 ms apart', 1, 1],
    ['the end 5 ms after the text', 0, 5],
    ['the end after the hold', 0, 40],
    ['3 ms apart, the end at once', 3, 0],
  ])('keeps a streamed reply before its end: %s', async (_label, gapMs, endAfterMs) => {
    const words = Array.from({ length: 40 }, (_, n) => `w${n} `);
    peer = await startRawPeer({
      answerPrompt: (id, send) =>
        void (async () => {
          for (const word of words) {
            send({
              jsonrpc: '2.0',
              method: 'session/update',
              params: {
                sessionId: 'raw-session',
                update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: word } },
              },
            });
            if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
          }
          if (endAfterMs) await new Promise((r) => setTimeout(r, endAfterMs));
          send({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });
        })(),
    });
    const order: string[] = [];
    const r = recorder();
    const agent = connect(peer.url, '', {
      ...r.events,
      update: (u) => {
        if (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text') order.push(u.content.text);
      },
      turnEnded: (_id, outcome) => {
        order.push('<end>');
        r.ended.push(outcome);
      },
    });
    agent.enable();
    agent.send('go');
    await until(() => r.ended.length === 1);
    agent.disable();
    expect(order.at(-1)).toBe('<end>');
    expect(order.slice(0, -1).join('')).toBe(words.join(''));
  });
});
