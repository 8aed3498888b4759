/**
 * Each session's agent gets a credential of its own for MCP: it opens that session's
 * `/mcp/<session>` while the session lives, and nothing else — not `/mcp` (the panel that connected
 * last), not another session's endpoint, not `/acp`. The agent is the SDK-written stdio test agent,
 * started by the broker as a user's agent, probing with the bearer the broker gave it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { client } from '@agentclientprotocol/sdk/unstable';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBroker, type RunningBroker } from '../../broker/server';
import { nodePanel, scriptedBrowser, until, type NodePanel } from '../peers/node-panel';
import { stdioAgentCommand } from '../peers/stdio-agent-command';

const TOKEN = 'session-credential-operator-token';
let broker: RunningBroker | undefined;
const panels: NodePanel[] = [];
const cleanups: Array<() => void> = [];

afterEach(async () => {
  for (const panel of panels.splice(0)) panel.close();
  await broker?.close();
  broker = undefined;
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function eventsFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tabwright-credentials-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'events.log');
}

/** The bearers the agent was handed, in the order its sessions started. */
function bearers(file: string): string[] {
  const text = (() => {
    try {
      return readFileSync(file, 'utf8');
    } catch {
      return '';
    }
  })();
  return [...text.matchAll(/^session\/new \S+ bearer (\S+)$/gm)].map((match) => match[1]!);
}

function attach(url: string, servers = [scriptedBrowser()]): NodePanel {
  const panel = nodePanel({ url, token: TOKEN, servers });
  panels.push(panel);
  return panel;
}

async function exchange(panel: NodePanel, text: string, ms = 30_000): Promise<string> {
  const before = panel.text().length;
  const turns = panel.turns.length;
  panel.connection.send(text);
  await until(() => panel.turns.length > turns, ms, `the answer to “${text}”`);
  return panel.text().slice(before);
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
});

async function post(url: string, bearer: string): Promise<{ status: number; error: string | undefined }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${bearer}`,
    },
    body: initialize,
  });
  const body = await response.text();
  const error = response.headers.get('content-type') === 'application/json' ? JSON.parse(body).error : undefined;
  return { status: response.status, error: error ? `${error.code} ${error.message}` : undefined };
}

// Each test starts real agent processes (TypeScript through tsx), which takes seconds on a busy machine.
describe('a session’s MCP credential', { timeout: 90_000 }, () => {
  it('opens its own session’s endpoint and is refused on /mcp and on another session’s', async () => {
    broker = await startBroker({ token: TOKEN, agentCommand: stdioAgentCommand() });
    const browserA = scriptedBrowser();
    const a = attach(broker.url, [browserA]);
    await until(() => a.connection.status === 'connected', 30_000, 'panel A');
    // B's panel gives its agent no tools: browser access is off for it.
    const b = attach(broker.url, []);
    await until(() => b.connection.status === 'connected', 30_000, 'panel B');

    expect(await exchange(b, `probe ${broker.mcpUrl}`)).toMatch(
      /^probe: 403 -32001 This is an agent's session credential: it opens only its own session's \/mcp\/<session>, not \/mcp$/,
    );
    expect(await exchange(b, `probe ${broker.mcpUrlFor(a.connection.sessionId!)}`)).toMatch(
      /^probe: 403 -32001 This credential belongs to another session/,
    );
    expect(await exchange(b, 'probe own')).toBe('probe: 200');
    expect(await exchange(b, 'tools')).toMatch(/^tools: {2}\(list_changed/);
    expect(await exchange(b, 'click Count')).toMatch(/^error: |no element named Count/);
    expect(browserA.calls).toEqual([]);

    // A's agent goes on working through its own endpoint.
    expect(await exchange(a, 'click Count')).toBe('clicked: Clicked <button> "Count" (e1)');
    expect(browserA.calls.map((call) => call.name)).toEqual(['tabwright.snapshot', 'tabwright.click']);
  });

  it('stops working when its session closes, and never opens /acp', async () => {
    const events = eventsFile();
    broker = await startBroker({ token: TOKEN, agentCommand: stdioAgentCommand({ STDIO_AGENT_EVENTS: events }) });
    const stream = createWebSocketStream(broker.url, {
      protocols: [`openab.bearer.${TOKEN}`, 'acp.v1'],
      WebSocket: WebSocket as never,
    });
    const outcome = await client().connectWith(stream, async (agent) => {
      await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
      const { sessionId } = await agent.request('session/new', { cwd: '/', mcpServers: [] });
      const [credential] = bearers(events);
      const own = broker!.mcpUrlFor(sessionId);
      const live = await post(own, credential!);
      await agent.request('session/close', { sessionId });
      return { credential: credential!, live, own };
    });
    expect(outcome.live.status).toBe(200);
    const closed = await post(outcome.own, outcome.credential);
    expect(closed).toEqual({
      status: 401,
      error: expect.stringMatching(
        /^-32001 Missing or wrong bearer token.*a session's credential ends with its session$/,
      ),
    });
    expect((await post(broker.mcpUrl, outcome.credential)).status).toBe(401);

    const upgrade = await new Promise<number>((resolve) => {
      const ws = new WebSocket(broker!.url, [`openab.bearer.${outcome.credential}`, 'acp.v1']);
      ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      ws.on('open', () => (ws.close(), resolve(101)));
      ws.on('error', () => undefined);
    });
    expect(upgrade).toBe(401);
    expect(outcome.credential).not.toBe(TOKEN);
  });

  it('is what the stdio bridge carries, and the agent never inherits the broker’s token', async () => {
    const events = eventsFile();
    const saved = process.env.TABWRIGHT_TOKEN;
    // The documented way to keep one token across restarts: the broker reads it from its environment.
    process.env.TABWRIGHT_TOKEN = TOKEN;
    cleanups.push(() =>
      saved === undefined ? delete process.env.TABWRIGHT_TOKEN : (process.env.TABWRIGHT_TOKEN = saved),
    );
    broker = await startBroker({
      token: TOKEN,
      agentCommand: stdioAgentCommand({ STDIO_AGENT_MCP: 'stdio', STDIO_AGENT_EVENTS: events }),
    });
    const browser = scriptedBrowser();
    const panel = attach(broker.url, [browser]);
    await until(() => panel.connection.status === 'connected', 30_000);
    expect(await exchange(panel, 'env TABWRIGHT_TOKEN')).toBe('env: TABWRIGHT_TOKEN is unset');
    expect(bearers(events)).toHaveLength(1);
    expect(bearers(events)[0]).not.toBe(TOKEN);
    expect(await exchange(panel, 'click Count')).toBe('clicked: Clicked <button> "Count" (e1)');
    expect(await exchange(panel, `probe ${broker.mcpUrl}`)).toMatch(/^probe: 403 /);
  });
});
