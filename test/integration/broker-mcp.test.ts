/**
 * `/mcp` end to end in Node: a client built on the official MCP TypeScript SDK, the local broker,
 * and the panel's real ACP client and tunnel serving scripted tool servers.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { TEST_BUILD_EXTENSION_ID } from '../../broker/extension-ids';
import { startBroker, type RunningBroker } from '../../broker/server';
import { NOT_CONNECTED } from '../../broker/tool-catalog';
import { browserTools } from '../../src/mcp-server/tools/index';
import { nodePanel, scriptedBrowser, ScriptedToolServer, until, type NodePanel } from '../peers/node-panel';

const TOKEN = 'mcp-test-token';
let broker: RunningBroker | undefined;
const panels: NodePanel[] = [];
const clients: Client[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close().catch(() => undefined);
  for (const panel of panels.splice(0)) panel.close();
  await broker?.close();
  broker = undefined;
});

async function mcpClient(url: string, token = TOKEN): Promise<Client> {
  const client = new Client({ name: 'broker-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }),
  );
  clients.push(client);
  return client;
}

function attach(url: string, servers = [scriptedBrowser()], dialect: 'a' | 'b' | 'both' = 'both'): NodePanel {
  const panel = nodePanel({ url, token: TOKEN, servers, dialect });
  panels.push(panel);
  return panel;
}

const textOf = (result: unknown) =>
  ((result as { content: Array<{ type: string; text?: string }> }).content ?? [])
    .map((block) => block.text ?? '')
    .join('\n');

describe('the broker serves the panel’s tools at /mcp', () => {
  it('lists the built-in tools before a panel attaches and says the browser is not connected', async () => {
    broker = await startBroker({ token: TOKEN });
    const client = await mcpClient(broker.mcpUrl);
    expect(client.getServerVersion()?.name).toBe('tabwright-broker');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(browserTools.map((tool) => `tabwright.${tool.name}`));
    expect(tools.find((tool) => tool.name === 'tabwright.click')?.inputSchema.properties).toHaveProperty('ref');
    const result = await client.callTool({ name: 'tabwright.snapshot', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(NOT_CONNECTED);
  });

  it('calls the attached panel’s tools through the tunnel and announces attach with list_changed', async () => {
    broker = await startBroker({ token: TOKEN });
    const client = await mcpClient(broker.mcpUrl);
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    const fossil = new ScriptedToolServer(
      'fossil',
      [{ name: 'fossil.list_my_tickets', description: 'Tickets assigned to me', inputSchema: { type: 'object' } }],
      async () => ({ content: [{ type: 'text', text: '3 tickets' }] }),
    );
    const browser = scriptedBrowser();
    const panel = attach(broker.url, [browser, fossil]);
    await until(() => panel.connection.status === 'connected', 10_000, 'the panel to connect');
    await until(() => changes > 0, 10_000, 'list_changed');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('fossil.list_my_tickets');
    expect(tools.map((tool) => tool.name)).toContain('tabwright.click');

    const clicked = await client.callTool({ name: 'tabwright.click', arguments: { ref: 'e1' } });
    expect(clicked.isError).toBeFalsy();
    expect(textOf(clicked)).toBe('Clicked <button> "Count" (e1)');
    expect(browser.calls.map((call) => [call.name, call.args])).toEqual([['tabwright.click', { ref: 'e1' }]]);
    expect(textOf(await client.callTool({ name: 'fossil.list_my_tickets', arguments: {} }))).toBe('3 tickets');

    const unknown = await client.callTool({ name: 'tabwright.nope', arguments: {} });
    expect(unknown.isError).toBe(true);
    expect(textOf(unknown)).toMatch(/Unknown tool tabwright\.nope\. Available tools: .*tabwright\.click/);
  });

  it('passes the panel’s own list_changed on to MCP clients', async () => {
    broker = await startBroker({ token: TOKEN });
    const browser = scriptedBrowser();
    const panel = attach(broker.url, [browser]);
    await until(() => panel.connection.status === 'connected');
    const client = await mcpClient(broker.mcpUrl);
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('tabwright.extra');
    let changes = 0;
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void changes++);
    browser.listings = [
      ...browser.listings,
      { name: 'tabwright.extra', description: 'An added tool', inputSchema: { type: 'object' } },
    ];
    await panel.tunnel.announceListChanged(panel.declared[0]!.acpId);
    await until(() => changes > 0, 10_000, 'list_changed');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('tabwright.extra');
  });

  it('tells the MCP client clearly when the panel disconnects mid-call, without hanging', async () => {
    broker = await startBroker({ token: TOKEN });
    const browser = scriptedBrowser();
    browser.script = (_name, _args, meta) =>
      new Promise((_, reject) => meta.signal.addEventListener('abort', () => reject(meta.signal.reason)));
    const panel = attach(broker.url, [browser]);
    await until(() => panel.connection.status === 'connected');
    const client = await mcpClient(broker.mcpUrl);
    await client.listTools();
    const pending = client.callTool({ name: 'tabwright.click', arguments: { ref: 'e1' } });
    await until(() => browser.calls.length === 1, 10_000, 'the call to reach the panel');
    const started = Date.now();
    panel.close();
    const result = await pending;
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/The browser disconnected before the call finished/);
    expect(browser.calls[0]!.signal.aborted).toBe(true);
  });

  it('cancels a call that runs past the tunnel deadline with mcp/cancel', async () => {
    broker = await startBroker({ token: TOKEN, tunnelTimeoutMs: 400 });
    const browser = scriptedBrowser();
    browser.script = (_name, _args, meta) =>
      new Promise((_, reject) => meta.signal.addEventListener('abort', () => reject(meta.signal.reason)));
    const panel = attach(broker.url, [browser], 'a');
    await until(() => panel.connection.status === 'connected');
    const client = await mcpClient(broker.mcpUrl);
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    const result = await client.callTool({ name: 'tabwright.click', arguments: { ref: 'e1' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/did not answer within 0 s; the call was cancelled/);
    await until(() => browser.calls[0]?.signal.aborted === true, 5_000, 'the panel to abort the call');
    expect(String(browser.calls[0]!.signal.reason)).toMatch(/cancelled by the agent/);
  });

  it('works over the ACP SDK binding as well', async () => {
    broker = await startBroker({ token: TOKEN, dialect: 'b' });
    const browser = scriptedBrowser();
    const panel = attach(broker.url, [browser], 'b');
    await until(() => panel.connection.status === 'connected');
    const client = await mcpClient(broker.mcpUrl);
    await until(async () => (await client.listTools()).tools.length > 0);
    const result = await client.callTool({ name: 'tabwright.snapshot', arguments: {} });
    expect(result.isError).toBeFalsy();
    expect(textOf(result)).toContain('- button "Count" [e1]');
    expect(result).not.toHaveProperty('resultType');
  });
});

describe('MCP client sessions', () => {
  it('closes the least recently used past the cap, never another endpoint’s', async () => {
    broker = await startBroker({ token: TOKEN, mcpSessionLimit: 2 });
    const panel = attach(broker.url);
    await until(() => panel.connection.status === 'connected');
    const pinned = await mcpClient(broker.mcpUrlFor(panel.connection.sessionId!));
    const first = await mcpClient(broker.mcpUrl);
    const second = await mcpClient(broker.mcpUrl);
    await second.listTools();
    const third = await mcpClient(broker.mcpUrl);
    await expect(first.listTools()).rejects.toThrow(/404|Session not found/);
    expect((await second.listTools()).tools.length).toBeGreaterThan(0);
    expect((await third.listTools()).tools.length).toBeGreaterThan(0);
    expect((await pinned.listTools()).tools.length).toBeGreaterThan(0);
  });
});

describe('who may reach /mcp', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
  };
  const post = (url: string, headers: Record<string, string>, body: unknown = initialize) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('refuses a wrong or missing bearer with 401', async () => {
    broker = await startBroker({ token: TOKEN });
    const wrong = await post(broker.mcpUrl, { authorization: 'Bearer nope' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await post(broker.mcpUrl, {})).status).toBe(401);
    await expect(mcpClient(broker.mcpUrl, 'nope')).rejects.toThrow();
  });

  it('refuses a web page Origin and a rebinding Host with 403', async () => {
    broker = await startBroker({ token: TOKEN });
    const auth = { authorization: `Bearer ${TOKEN}` };
    expect((await post(broker.mcpUrl, { ...auth, origin: 'https://evil.example' })).status).toBe(403);
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(broker!.mcpUrl, { method: 'POST', headers: { ...auth, host: 'evil.example' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(JSON.stringify(initialize));
    });
    expect(status).toBe(403);
  });

  it('refuses /acp upgrades from a web page, with a wrong token, or through a foreign Host', async () => {
    broker = await startBroker({ token: TOKEN });
    const { WebSocket } = await import('ws');
    const upgrade = (protocols: string[], headers: Record<string, string>) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(broker!.url, protocols, { headers });
        ws.on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
        // An extension it does not admit is told so in a close frame, at once.
        ws.on('open', () => {
          ws.once('close', (code: number) => resolve(code));
          setTimeout(() => {
            ws.close();
            resolve(101);
          }, 300);
        });
        ws.on('error', () => undefined);
      });
    const good = [`openab.bearer.${TOKEN}`, 'acp.v1'];
    expect(await upgrade(good, {})).toBe(101);
    expect(await upgrade(good, { origin: `chrome-extension://${TEST_BUILD_EXTENSION_ID}` })).toBe(101);
    expect(await upgrade(good, { origin: 'chrome-extension://abcdefghijklmnopabcdefghijklmnop' })).toBe(4403);
    expect(await upgrade(good, { origin: 'chrome-extension://abcdefghijklmnop' })).toBe(403);
    expect(await upgrade(good, { origin: 'https://evil.example' })).toBe(403);
    expect(await upgrade(good, { host: 'rebound.example:80' })).toBe(403);
    expect(await upgrade(['openab.bearer.wrong', 'acp.v1'], {})).toBe(401);
  });

  it('negotiates only the revisions it serves and refuses oversized bodies', async () => {
    broker = await startBroker({ token: TOKEN });
    const auth = { authorization: `Bearer ${TOKEN}` };
    const old = await post(broker.mcpUrl, auth, {
      ...initialize,
      params: { ...initialize.params, protocolVersion: '2024-11-05' },
    });
    expect(old.status).toBe(200);
    expect(await old.text()).toContain('"protocolVersion":"2025-11-25"');
    const current = await post(broker.mcpUrl, auth);
    expect(await current.text()).toContain('"protocolVersion":"2025-06-18"');
    const huge = await post(broker.mcpUrl, auth, JSON.stringify({ ...initialize, pad: 'x'.repeat(1024 * 1024) }));
    expect(huge.status).toBe(413);
    expect((await post(broker.mcpUrl, auth, '{not json')).status).toBe(400);
    expect((await post(`${broker.mcpUrl}/no-such-session`, auth)).status).toBe(404);
  });
});
