/**
 * The demo agent and several panels in Node: the panel's real ACP client against the broker, with
 * scripted tool servers standing in for the browser.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { nodePanel, scriptedBrowser, until, type NodePanel } from '../peers/node-panel';

const TOKEN = 'demo-test-token';
let broker: RunningBroker | undefined;
const panels: NodePanel[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  for (const panel of panels.splice(0)) panel.close();
  await broker?.close();
  broker = undefined;
});

function attach(answerPermissions?: string | null) {
  const browser = scriptedBrowser();
  const panel = nodePanel({
    url: broker!.url,
    token: TOKEN,
    servers: [browser],
    ...(answerPermissions !== undefined ? { answerPermissions } : {}),
  });
  panels.push(panel);
  return { panel, browser };
}

async function exchange(panel: NodePanel, text: string): Promise<string> {
  const before = panel.text().length;
  const turns = panel.turns.length;
  panel.connection.send(text);
  await until(() => panel.turns.length > turns, 15_000, `the answer to “${text}”`);
  return panel.text().slice(before);
}

async function mcpClient(url: string): Promise<Client> {
  const client = new Client({ name: 'demo-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
  );
  clients.push(client);
  return client;
}

describe('the demo agent', () => {
  it('asks through session/request_permission and reports the answer', async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    const { panel } = attach('allow_always');
    await until(() => panel.connection.status === 'connected');
    expect(await exchange(panel, 'ask May I?')).toBe('You answered: **Allow always** (`allow_always`).');
    const request = panel.permissions[0]!.request;
    expect(request.toolCall.title).toBe('May I?');
    expect(request.options.map((option) => option.kind)).toEqual([
      'allow_once',
      'allow_always',
      'reject_once',
      'reject_always',
    ]);
  });

  it('reports a cancelled question', async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    const { panel } = attach(null);
    await until(() => panel.connection.status === 'connected');
    expect(await exchange(panel, 'ask Really?')).toBe('The question was cancelled: no answer.');
  });

  it('streams numbered lines slowly, and stops on cancel', async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    const { panel } = attach();
    await until(() => panel.connection.status === 'connected');
    expect(await exchange(panel, 'stream 3 10')).toBe('Line 1 of 3\nLine 2 of 3\nLine 3 of 3\n');
    const turns = panel.turns.length;
    panel.connection.send('stream 1000 50');
    await until(() => panel.text().includes('Line 2 of 1000'), 10_000, 'streaming');
    await panel.connection.cancel();
    await until(() => panel.turns.length > turns, 10_000, 'the cancelled turn');
    expect(panel.turns.at(-1)).toEqual({ stopReason: 'cancelled' });
    expect(panel.text()).not.toContain('Line 1000 of 1000');
  });

  it('finds, types and clicks through the panel’s tools', async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    const { panel, browser } = attach();
    await until(() => panel.connection.status === 'connected');
    expect(await exchange(panel, 'find count')).toContain('- button "Count" [e1]');
    expect(await exchange(panel, 'type Ada Lovelace into Your name')).toContain('Typed "Ada Lovelace" into e2');
    expect(await exchange(panel, 'click count')).toContain('Clicked <button> "Count" (e1)');
    expect(await exchange(panel, 'click Nothing')).toBe('I found nothing named “Nothing” on the page.');
    expect(browser.calls.map((call) => call.name)).toEqual([
      'tabwright.find',
      'tabwright.snapshot',
      'tabwright.type',
      'tabwright.snapshot',
      'tabwright.click',
      'tabwright.snapshot',
    ]);
    const help = await exchange(panel, 'help');
    for (const usage of [
      'snapshot',
      'find <text>',
      'click <name>',
      'type <text> into <name>',
      'tabs',
      'stream',
      'ask',
    ]) {
      expect(help).toContain(`\`${usage}`);
    }
  });
});

describe('several panels at once', () => {
  it('keeps each panel’s session and tools apart; /mcp follows the panel that attached last', async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    const first = attach();
    await until(() => first.panel.connection.status === 'connected');
    const second = attach();
    await until(() => second.panel.connection.status === 'connected');
    expect(first.panel.connection.sessionId).not.toBe(second.panel.connection.sessionId);

    expect(await exchange(first.panel, 'hello from one')).toBe('You said: hello from one');
    expect(await exchange(second.panel, 'hello from two')).toBe('You said: hello from two');

    const latest = await mcpClient(broker.mcpUrl);
    await latest.callTool({ name: 'tabwright.tabs', arguments: {} });
    expect(second.browser.calls).toHaveLength(1);
    expect(first.browser.calls).toHaveLength(0);

    // A session's own endpoint lists the browser tools bare; the panel is asked for the full tool.
    const pinned = await mcpClient(broker.mcpUrlFor(first.panel.connection.sessionId!));
    await pinned.callTool({ name: 'tabs', arguments: {} });
    expect(first.browser.calls).toHaveLength(1);
    expect((await pinned.listTools()).tools.map((tool) => tool.name)).toContain('tabs');

    second.panel.close();
    await until(() => broker!.sessions.latestAttached()?.id === first.panel.connection.sessionId, 10_000, 'detach');
    await latest.callTool({ name: 'tabwright.tabs', arguments: {} });
    expect(first.browser.calls).toHaveLength(2);
  });
});
