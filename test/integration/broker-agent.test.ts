/**
 * `--agent` end to end in Node: the broker spawns a real stdio ACP agent (written with the ACP
 * SDK's agent side) per panel session and relays ACP between it and the panel's real client; the
 * agent reaches the panel's tools over the broker's HTTP MCP endpoint (or its stdio bridge).
 */
import { client } from '@agentclientprotocol/sdk/unstable';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBroker, type BrokerOptions, type RunningBroker } from '../../broker/server';
import { nodePanel, scriptedBrowser, until, type NodePanel } from '../peers/node-panel';
import { stdioAgentCommand } from '../peers/stdio-agent-command';

const TOKEN = 'agent-test-token';
let broker: RunningBroker | undefined;
const panels: NodePanel[] = [];
const logs: string[] = [];

afterEach(async () => {
  for (const panel of panels.splice(0)) panel.close();
  await broker?.close();
  broker = undefined;
  logs.length = 0;
});

async function start(env: Record<string, string> = {}, extra: Partial<BrokerOptions> = {}) {
  broker = await startBroker({
    token: TOKEN,
    agentCommand: stdioAgentCommand(env),
    log: (line) => logs.push(line),
    ...extra,
  });
  return broker;
}

function attach(url: string, answerPermissions?: string | null) {
  const browser = scriptedBrowser();
  const panel = nodePanel({
    url,
    token: TOKEN,
    servers: [browser],
    ...(answerPermissions !== undefined ? { answerPermissions } : {}),
  });
  panels.push(panel);
  return { panel, browser };
}

/** Sends one message and resolves with the text the agent streamed for it. */
async function exchange(panel: NodePanel, text: string, ms = 30_000): Promise<string> {
  const before = panel.text().length;
  const turns = panel.turns.length;
  panel.connection.send(text);
  await until(() => panel.turns.length > turns, ms, `the answer to “${text}”`);
  return panel.text().slice(before);
}

const agentPids = () => logs.flatMap((line) => /runs in agent process (\d+)/.exec(line)?.[1] ?? []).map(Number);
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

// Each test starts real agent processes (TypeScript through tsx), which takes seconds on a busy machine.
describe('the broker fronts a stdio ACP agent', { timeout: 90_000 }, () => {
  it('offers the panel’s tools to the agent over HTTP MCP, and the agent uses them', async () => {
    await start();
    const { panel, browser } = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000, 'the panel to connect');
    expect(await exchange(panel, 'mcp')).toBe('mcp: http tabwright (auth header: yes; connected: yes)');
    expect(await exchange(panel, 'tools')).toMatch(/^tools: snapshot, .*\bclick\b/);
    expect(await exchange(panel, 'click Count')).toBe('clicked: Clicked <button> "Count" (e1)');
    // The agent calls the bare names its endpoint lists; the panel is asked for the full tools.
    expect(browser.calls.map((call) => call.name)).toEqual(['tabwright.snapshot', 'tabwright.click']);
    const cards = panel.updates.filter((u) => u.sessionUpdate === 'tool_call');
    expect(cards.map((card) => (card as { title: string }).title)).toEqual(['snapshot', 'click']);
    expect(await exchange(panel, 'hello')).toBe('agent heard: hello');
  });

  it('holds the first turn until an agent that lists its tools in the background has them', async () => {
    await start({ STDIO_AGENT_LIST_DELAY_MS: '1500' });
    const { panel } = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000, 'the panel to connect');
    expect(await exchange(panel, 'listed')).toMatch(/^listed: snapshot, .*\bclick\b/);
    expect(logs.filter((line) => /first turn waited \d+ ms for the agent to list its tools/.test(line))).toHaveLength(
      1,
    );
    expect(await exchange(panel, 'hello')).toBe('agent heard: hello');
    expect(logs.filter((line) => /first turn waited/.test(line))).toHaveLength(1);
  });

  it('holds that first turn no longer than 5 s after the agent connected, for an agent that lists later', async () => {
    await start({ STDIO_AGENT_LIST_DELAY_MS: '60000' });
    const { panel } = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000, 'the panel to connect');
    expect(await exchange(panel, 'listed')).toBe('listed: none yet');
    const waited = Number(/first turn waited (\d+) ms/.exec(logs.join('\n'))?.[1] ?? 0);
    expect(waited).toBeGreaterThan(0);
    expect(waited).toBeLessThanOrEqual(5_000);
  });

  it('a Stop while the first turn waits for the listing ends it without sending it to the agent', async () => {
    await start({ STDIO_AGENT_LIST_DELAY_MS: '60000' });
    const { panel } = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000, 'the panel to connect');
    const turns = panel.turns.length;
    panel.connection.send('never delivered');
    await panel.connection.cancel();
    await until(() => panel.turns.length > turns, 10_000, 'the stopped turn to end');
    expect(panel.turns.at(-1)).toEqual({ stopReason: 'cancelled' });
    expect(await exchange(panel, 'history')).toBe('history: (empty)');
  });

  it('relays permission questions to the panel and the answer back', async () => {
    await start();
    const { panel } = attach(broker!.url, 'yes');
    await until(() => panel.connection.status === 'connected', 30_000);
    expect(await exchange(panel, 'ask Deploy now?')).toBe('answer: yes');
    expect(panel.permissions).toHaveLength(1);
    expect(panel.permissions[0]!.request.toolCall.title).toBe('Deploy now?');
    expect(panel.permissions[0]!.request.sessionId).toBe(panel.connection.sessionId);
  });

  it('relays cancellation: the agent ends the turn as cancelled', async () => {
    await start();
    const { panel } = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    const turns = panel.turns.length;
    panel.connection.send('slow 60000');
    await until(() => panel.text().includes('working…'), 20_000, 'the slow turn to start');
    await panel.connection.cancel();
    await until(() => panel.turns.length > turns, 10_000, 'the cancelled turn to end');
    expect(panel.turns.at(-1)).toEqual({ stopReason: 'cancelled' });
  });

  it('falls back to its stdio bridge for an agent without HTTP MCP', async () => {
    await start({ STDIO_AGENT_MCP: 'stdio' });
    const { panel, browser } = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    expect(await exchange(panel, 'mcp')).toBe('mcp: stdio tabwright (auth header: no; connected: yes)');
    expect(await exchange(panel, 'click Count')).toBe('clicked: Clicked <button> "Count" (e1)');
    expect(browser.calls.at(-1)?.args).toEqual({ ref: 'e1' });
  });

  it('keeps the token out of the log, even when the agent prints it', async () => {
    await start();
    const { panel } = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    await exchange(panel, 'leak');
    await until(() => logs.some((line) => line.includes('stdio-test-agent config:')), 10_000, 'the leak to be logged');
    expect(logs.find((line) => line.includes('stdio-test-agent config:'))).toContain('Authorization: Bearer ***');
    expect(logs.join('\n')).not.toContain(TOKEN);
  });

  it('leaves out an update over 1 MiB with a note, and keeps the socket', async () => {
    await start();
    const { panel } = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    const text = await exchange(panel, 'big');
    expect(text).toContain('The agent sent an update over 1 MiB; the broker left it out.');
    expect(text).toContain('after the big one');
    expect(text.length).toBeLessThan(1_000);
    expect(await exchange(panel, 'still there?')).toBe('agent heard: still there?');
  });

  it('keeps the same agent process across a dropped socket', async () => {
    await start();
    const { panel } = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    await exchange(panel, 'first');
    const sessionId = panel.connection.sessionId;
    broker!.dropConnections();
    await until(() => panel.connection.status !== 'connected', 10_000, 'the drop');
    await until(() => panel.connection.status === 'connected', 30_000, 'the reconnect');
    expect(panel.connection.sessionId).toBe(sessionId);
    expect(await exchange(panel, 'history')).toBe('history: first');
    expect(agentPids()).toHaveLength(1);
  });

  it('reports an agent that dies mid-turn, then restores the session in a new process', async () => {
    await start();
    const { panel } = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    await exchange(panel, 'crash');
    expect(panel.turns.at(-1)).toMatchObject({
      error: expect.stringMatching(/exited with code 3.*crashing on purpose/),
    });
    expect(await exchange(panel, 'hello again')).toBe('agent heard: hello again');
    await until(() => logs.some((line) => /restored in agent process/.test(line)), 5_000, 'the restore log');
  });

  it('stops an agent left without a panel, and restores it on resume (session/load replay not shown)', async () => {
    await start({ STDIO_AGENT_RESTORE: 'load' }, { detachedAgentTtlMs: 300 });
    const { panel } = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    await exchange(panel, 'one');
    const [pid] = agentPids();
    const sessionId = panel.connection.sessionId;
    panel.connection.disable();
    await until(() => logs.some((line) => line.includes('its agent process was stopped')), 10_000, 'the reaper');
    await until(() => !alive(pid!), 10_000, 'the agent process to end');
    panel.connection.enable();
    await until(() => panel.connection.status === 'connected', 30_000, 'the reconnect');
    expect(panel.connection.sessionId).toBe(sessionId);
    expect(await exchange(panel, 'two')).toBe('agent heard: two');
    expect(panel.text()).not.toContain('replayed history');
  });

  it('says why when the agent command cannot start', async () => {
    broker = await startBroker({ token: TOKEN, agentCommand: 'no-such-agent-command --acp', log: (l) => logs.push(l) });
    const stream = createWebSocketStream(broker.url, {
      protocols: [`openab.bearer.${TOKEN}`, 'acp.v1'],
      WebSocket: WebSocket as never,
    });
    const failure = await client()
      .connectWith(stream, (agent) => agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} }))
      .then(
        () => 'no error',
        (error: Error) => error.message,
      );
    expect(failure).toMatch(/The agent did not start: The agent process exited with code 127.*not found/);
  });
});
