/**
 * `--agent` when things go wrong: an agent that needs signing in or refuses sessions, an agent
 * error that must say what happened, a Stop the agent ignores, and paths the broker does not
 * serve. The agent is the SDK-written stdio test agent, started by the broker as a user's agent.
 */
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { client, RequestError } from '@agentclientprotocol/sdk/unstable';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startBroker, type BrokerOptions, type RunningBroker } from '../../broker/server';
import { DEFAULT_BACKOFF } from '../../src/acp/backoff';
import { FakeClock } from '../../src/acp/fake-clock';
import { signInOptions } from '../../src/acp/sign-in';
import { nodePanel, scriptedBrowser, until, type NodePanel } from '../peers/node-panel';
import { stdioAgentCommand } from '../peers/stdio-agent-command';
import { panelClient } from './panel-client';

const TOKEN = 'agent-failure-token';
let broker: RunningBroker | undefined;
const panels: NodePanel[] = [];
const cleanups: Array<() => void> = [];
const logs: string[] = [];

afterEach(async () => {
  for (const panel of panels.splice(0)) panel.close();
  for (const cleanup of cleanups.splice(0)) cleanup();
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

function attach(url: string): NodePanel {
  const panel = nodePanel({ url, token: TOKEN, servers: [scriptedBrowser()] });
  panels.push(panel);
  return panel;
}

const launches = () => logs.filter((line) => /^agent process \d+ started$/.test(line)).length;
const lastStatus = (panel: NodePanel) => panel.statuses.at(-1);

async function exchange(panel: NodePanel, text: string, ms = 30_000): Promise<string> {
  const before = panel.text().length;
  const turns = panel.turns.length;
  panel.connection.send(text);
  await until(() => panel.turns.length > turns, ms, `the answer to “${text}”`);
  return panel.text().slice(before);
}

/** Lets real sockets and processes run while the panel's fake clock covers `ms`. */
async function pass(clock: FakeClock, ms: number, stepMs = 1_000): Promise<void> {
  for (let covered = 0; covered < ms; covered += stepMs) {
    await clock.advance(stepMs);
    await new Promise((resolve) => setTimeout(resolve, 15));
  }
}

describe('an agent that refuses the session', { timeout: 90_000 }, () => {
  it('is shown as refused with the agent’s reason, never unreachable, and runs in one process for 150 s', async () => {
    await start({ STDIO_AGENT_REFUSE: 'the model provider is not configured' });
    const clock = new FakeClock();
    // The product's own back-off, on a clock the test moves: 150 s of panel time.
    const panel = panelClient({ url: broker!.url, token: TOKEN, clock, timing: { backoff: DEFAULT_BACKOFF } });
    cleanups.push(() => panel.connection.disable());
    panel.connection.enable();
    await until(() => panel.connection.status === 'refused', 30_000, 'the refusal');
    await pass(clock, 150_000);
    expect(panel.connection.status).toBe('refused');
    expect(panel.recorded.statuses.map(([status]) => status)).not.toContain('unreachable');
    const detail = panel.recorded.statuses.at(-1)![1]!;
    expect(detail).toMatch(/refused to start a session: Internal error: the model provider is not configured/);
    expect(detail).toContain('stdio-test-agent: refusing the session');
    expect(launches()).toBe(1);
    expect(logs.filter((line) => line.includes('refusing the session'))).toHaveLength(1);

    // A click on the chip is the one thing that tries again, in the same process.
    panel.connection.enable();
    await until(() => logs.filter((line) => line.includes('refusing the session')).length === 2, 20_000, 'a retry');
    await until(() => panel.connection.status === 'refused', 10_000);
    expect(launches()).toBe(1);
  });

  it('keeps one process however often a client retries session/new', async () => {
    await start({ STDIO_AGENT_REFUSE: 'no-model' });
    for (let attempt = 0; attempt < 4; attempt++) {
      const stream = createWebSocketStream(broker!.url, {
        protocols: [`openab.bearer.${TOKEN}`, 'acp.v1'],
        WebSocket: WebSocket as never,
      });
      const refused = await client().connectWith(stream, async (agent) => {
        await agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
        return agent.request('session/new', { cwd: '/', mcpServers: [] }).then(
          () => undefined,
          (error: RequestError) => error,
        );
      });
      expect(refused).toBeInstanceOf(RequestError);
      expect(refused!.data).toMatchObject({ details: 'no-model', stderr: expect.stringContaining('no-model') });
    }
    expect(launches()).toBe(1);
  });
});

describe('an agent that needs signing in', { timeout: 90_000 }, () => {
  it('shows its methods in words, signs in with the one picked, and starts the session', async () => {
    await start({ STDIO_AGENT_AUTH: 'required', TEST_AGENT_KEY: 'dummy-key-for-tests' });
    const panel = attach(broker!.url);
    await until(() => panel.connection.status === 'needs_signin', 30_000, 'the sign-in state');
    const options = signInOptions(panel.connection.authMethods);
    expect(options.map((o) => [o.id, o.kind, o.authenticates])).toEqual([
      ['test-key', 'env_var', true],
      ['test-login', 'terminal', false],
    ]);
    expect(options[0]!.instruction).toContain('TEST_AGENT_KEY=…');
    expect(panel.statuses).not.toContain('unreachable');
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(lastStatus(panel)).toBe('needs_signin');

    panel.connection.signIn('test-key');
    await until(() => panel.connection.status === 'connected', 30_000, 'the session after signing in');
    expect(await exchange(panel, 'hello')).toBe('agent heard: hello');
    expect(launches()).toBe(1);
    expect(logs).toContain('the agent signed in (test-key)');
  });

  it('says why a sign-in failed and waits for the next choice', async () => {
    await start({ STDIO_AGENT_AUTH: 'required' });
    const panel = attach(broker!.url);
    await until(() => panel.connection.status === 'needs_signin', 30_000, 'the sign-in state');
    const before = panel.statuses.length;
    panel.connection.signIn('test-key');
    await until(
      () => panel.statuses.length > before + 1 && panel.connection.status === 'needs_signin',
      30_000,
      'the failed sign-in',
    );
    expect(launches()).toBe(1);
  });

  it('signs in every later agent process the same way', async () => {
    await start({ STDIO_AGENT_AUTH: 'required', TEST_AGENT_KEY: 'dummy-key-for-tests' }, { detachedAgentTtlMs: 300 });
    const panel = attach(broker!.url);
    await until(() => panel.connection.status === 'needs_signin', 30_000);
    panel.connection.signIn('test-key');
    await until(() => panel.connection.status === 'connected', 30_000);
    await exchange(panel, 'one');
    panel.connection.disable();
    await until(() => logs.some((line) => line.includes('its agent process was stopped')), 10_000, 'the reaper');
    panel.connection.enable();
    await until(() => panel.connection.status === 'connected', 30_000, 'the reconnect');
    expect(await exchange(panel, 'two')).toBe('agent heard: two');
    expect(launches()).toBe(2);
  });
});

describe('agent errors', { timeout: 90_000 }, () => {
  it('reach the chat at once with the agent’s data and its stderr, secrets masked', async () => {
    await start({}, { token: TOKEN });
    const panel = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    const started = Date.now();
    await exchange(panel, 'fail');
    const elapsed = Date.now() - started;
    const outcome = panel.turns.at(-1) as { error: string };
    expect(outcome.error).toMatch(/^Internal error: stream disconnected before completion: error sending request/);
    expect(outcome.error).toContain('request to the model failed; key sk-*** refused');
    expect(outcome.error).not.toContain('0123456789abcdef');
    expect(logs.join('\n')).not.toContain('0123456789abcdef');
    expect(elapsed).toBeLessThan(1_500);
  });

  it('an update ACP does not allow is said in the chat once and logged by the broker, never lost', async () => {
    await start();
    const panel = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    const reply = await exchange(panel, 'usage-null');
    expect(reply).toContain('The agent sent a usage_update update that ACP does not allow');
    expect(reply).toContain('used is null');
    expect(reply.split('does not allow').length).toBe(2);
    expect(reply).toContain('usage sent');
    expect(
      logs.filter((line) => /^dropped a usage_update update from the agent .*used is null/.test(line)),
    ).toHaveLength(2);
  });

  it('carry only the stderr the agent wrote during the failing request', async () => {
    await start();
    const panel = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    expect(await exchange(panel, 'note from-an-earlier-turn')).toBe('noted from-an-earlier-turn');
    await until(() => logs.some((line) => line.includes('from-an-earlier-turn')), 5_000, 'the earlier line');
    await exchange(panel, 'fail');
    const outcome = panel.turns.at(-1) as { error: string };
    expect(outcome.error).toContain('request to the model failed');
    expect(outcome.error).not.toContain('from-an-earlier-turn');
    expect(outcome.error).not.toContain('stdio-test-agent ready');
  });
});

describe('Stop', { timeout: 90_000 }, () => {
  it('clears the grace timer when the agent ends the cancelled turn', async () => {
    await start({}, { agentCancelGraceMs: 800 });
    const panel = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    const turns = panel.turns.length;
    panel.connection.send('slow 60000');
    await until(() => panel.text().includes('working…'), 20_000);
    await panel.connection.cancel();
    await until(() => panel.turns.length > turns, 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(logs.some((line) => line.includes('did not end a cancelled turn'))).toBe(false);
  });

  it('never overlaps turns: an agent that ignores cancel is replaced, and the session goes on', async () => {
    await start({}, { agentCancelGraceMs: 500 });
    const panel = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    await exchange(panel, 'first');
    const turns = panel.turns.length;
    panel.connection.send('stubborn 4000');
    await until(() => panel.text().includes('not stopping…'), 20_000);
    await panel.connection.cancel();
    await until(() => panel.turns.length > turns, 10_000, 'the cancelled turn');
    expect(panel.turns.at(-1)).toEqual({ stopReason: 'cancelled' });
    expect(await exchange(panel, 'hello')).toBe('agent heard: hello');
    expect(await exchange(panel, 'history')).toBe('history: hello');
    expect(logs.some((line) => line.includes('OVERLAP'))).toBe(false);
    expect(logs.some((line) => /restored in agent process/.test(line))).toBe(true);
    expect(launches()).toBe(2);
  });

  it('an agent that answers one turn late after a Stop goes on in a new process: each turn gets its own answer', async () => {
    await start({ STDIO_AGENT_LATE_AFTER_STOP: '1' });
    const panel = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    expect(await exchange(panel, 'first')).toBe('agent heard: first');
    const turns = panel.turns.length;
    panel.connection.send('slow 60000');
    await until(() => panel.text().includes('working…'), 20_000);
    await panel.connection.cancel();
    await until(() => panel.turns.length > turns, 10_000, 'the cancelled turn');
    const next = await exchange(panel, 'hello');
    expect(next).toBe('agent heard: hello');
    expect(panel.turns.at(-1)).toEqual({ stopReason: 'end_turn' });
    const after = await exchange(panel, 'again');
    expect(after).toBe('agent heard: again');
    expect(panel.text()).not.toContain('late answer');
    expect(logs.some((line) => /restored in agent process/.test(line))).toBe(true);
    expect(launches()).toBe(2);
  });

  it('never overlaps turns: with an agent that cannot restore, the next prompt waits for the old turn', async () => {
    await start({ STDIO_AGENT_RESTORE: 'none' }, { agentCancelGraceMs: 500 });
    const panel = attach(broker!.url);
    await until(() => panel.connection.status === 'connected', 30_000);
    const turns = panel.turns.length;
    panel.connection.send('stubborn 3000');
    await until(() => panel.text().includes('not stopping…'), 20_000);
    const stoppedAt = Date.now();
    await panel.connection.cancel();
    await until(() => panel.turns.length > turns, 10_000, 'the cancelled turn');
    expect(Date.now() - stoppedAt).toBeLessThan(2_500);
    expect(await exchange(panel, 'hello')).toBe('agent heard: hello');
    expect(panel.text()).not.toContain('stubborn turn over');
    expect(logs.some((line) => line.includes('OVERLAP'))).toBe(false);
    expect(launches()).toBe(1);
  });
});

describe('paths the broker does not serve', () => {
  it('answer 404, in the MCP error shape under /mcp', async () => {
    broker = await startBroker({ token: TOKEN, log: (line) => logs.push(line) });
    const base = broker.mcpUrl.replace(/\/mcp$/, '');
    const wellKnown = await fetch(`${base}/.well-known/oauth-protected-resource`);
    expect(wellKnown.status).toBe(404);
    const nested = await fetch(`${base}/mcp/a/b`, { method: 'POST', body: '{}' });
    expect(nested.status).toBe(404);
    expect(nested.headers.get('content-type')).toBe('application/json');
    expect(await nested.json()).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001 } });
    expect((await fetch(`${base}/`)).status).toBe(200);
    expect((await fetch(`${base}/acp`)).status).toBe(200);
  });
});
