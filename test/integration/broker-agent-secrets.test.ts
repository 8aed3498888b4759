/**
 * An agent's own error, echoing what it was started with — the broker's token, an API key from the
 * broker's environment, its session's MCP credential — reaches the panel masked: its message, every
 * string in its data, the stderr tail the broker adds, and so the chat and the history built from
 * them. The agent is the SDK-written stdio test agent, started by the broker as a user's agent.
 */
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { client, RequestError } from '@agentclientprotocol/sdk/unstable';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBroker, type RunningBroker } from '../../broker/server';
import { nodePanel, scriptedBrowser, until, type NodePanel } from '../peers/node-panel';
import { stdioAgentCommand } from '../peers/stdio-agent-command';

const TOKEN = 'agent-secrets-broker-token';
/** Shaped like no known provider's key, so only its variable's name can tell it is one. */
const KEY = 'opnk-4Qz7Lm2Vx9Rt5Wb8';
let broker: RunningBroker | undefined;
const panels: NodePanel[] = [];
const logs: string[] = [];
const savedKey = process.env.OPENAI_API_KEY;

beforeAll(() => {
  // The key the user started the broker with, which the agent inherits.
  process.env.OPENAI_API_KEY = KEY;
});
afterAll(() => {
  if (savedKey === undefined) delete process.env.OPENAI_API_KEY;
  else process.env.OPENAI_API_KEY = savedKey;
});
afterEach(async () => {
  for (const panel of panels.splice(0)) panel.close();
  await broker?.close();
  broker = undefined;
  logs.length = 0;
});

async function start(): Promise<RunningBroker> {
  broker = await startBroker({
    token: TOKEN,
    agentCommand: stdioAgentCommand({ STDIO_AGENT_LEAK: TOKEN }),
    log: (line) => logs.push(line),
  });
  return broker;
}

describe('an agent’s error that carries secrets', { timeout: 90_000 }, () => {
  it('crosses the wire masked: message, every string of its data, and the stderr tail', async () => {
    await start();
    const stream = createWebSocketStream(broker!.url, {
      protocols: [`openab.bearer.${TOKEN}`, 'acp.v1'],
      WebSocket: WebSocket as never,
    });
    const error = await client().connectWith(stream, async (agent) => {
      await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await agent.request('session/new', {
        cwd: '/',
        mcpServers: [{ type: 'acp', id: 'b1', name: 'tabwright' } as never],
      });
      return agent.request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'fail-secret' }] }).then(
        () => undefined,
        (failure: RequestError) => failure,
      );
    });
    expect(error).toBeInstanceOf(RequestError);
    expect(error!.message).toBe('Request refused for ***');
    expect(error!.data).toEqual({
      details: 'invalid key *** for this organisation (my MCP bearer is ***)',
      request: { sent: ['***', '***', '***'], '***': 'as a key too' },
      stderr: expect.stringContaining('stdio-test-agent: upstream answered 401 for *** and ***'),
    });
    const wire = JSON.stringify({ message: error!.message, data: error!.data });
    expect(wire).not.toContain(TOKEN);
    expect(wire).not.toContain(KEY);
    expect(logs.join('\n')).not.toContain(KEY);
  });

  it('reaches the panel’s chat masked', async () => {
    await start();
    const panel = nodePanel({ url: broker!.url, token: TOKEN, servers: [scriptedBrowser()] });
    panels.push(panel);
    await until(() => panel.connection.status === 'connected', 30_000, 'the panel to connect');
    const turns = panel.turns.length;
    panel.connection.send('fail-secret');
    await until(() => panel.turns.length > turns, 30_000, 'the failed turn');
    const shown = (panel.turns.at(-1) as { error: string }).error;
    expect(shown).toMatch(
      /^Request refused for \*\*\*: invalid key \*\*\* for this organisation \(my MCP bearer is \*\*\*\)/,
    );
    expect(shown).toContain('upstream answered 401 for *** and ***');
    expect(shown).not.toContain(TOKEN);
    expect(shown).not.toContain(KEY);
  });
});
