import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBroker, type RunningBroker } from '../../broker/server';
import { AgentConnection, type AgentEvents, type ConnectionStatus } from '../../src/acp/agent-connection';
import { systemClock } from '../../src/acp/clock';
import { fetchProbe } from '../../src/acp/failure';
import { McpTunnel } from '../../src/mcp-server/tunnel';

let broker: RunningBroker | undefined;
afterEach(async () => {
  await broker?.close();
  broker = undefined;
});

function recorder() {
  const statuses: Array<[ConnectionStatus, string | undefined]> = [];
  const chunks: string[] = [];
  const ended: unknown[] = [];
  const events: AgentEvents = {
    status: (s, d) => statuses.push([s, d]),
    session: () => undefined,
    turnStarted: () => undefined,
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
});
