/**
 * Any MCP client drives the real browser through the broker's `/mcp`: a client built on the
 * official MCP TypeScript SDK lists the panel's tools and clicks a button on a fixture page, and
 * the panel's gates (act mode, allowed sites, confirmation) decide, as for any agent.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { NOT_CONNECTED } from '../../broker/tool-catalog';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import {
  addAgentThroughForm,
  allowSite,
  launchWithExtension,
  openActiveTab,
  openPanelTab,
  type Launched,
} from './harness';

const TOKEN = 'broker-mcp-token';

function textOf(result: unknown): string {
  return ((result as { content?: Array<{ text?: string }> }).content ?? []).map((block) => block.text ?? '').join('\n');
}

describe('an MCP client drives the browser through /mcp', () => {
  let launched: Launched;
  let broker: RunningBroker;
  let fixtures: FixtureServer;
  let client: Client;

  beforeAll(async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    fixtures = await startFixtureServer();
    launched = await launchWithExtension();
    client = new Client({ name: 'e2e-mcp-client', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(broker.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
  });
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await launched?.close();
    await broker?.close();
    await fixtures?.close();
  });

  it('lists the tools, is refused without act mode, and clicks once the user allows it', async () => {
    const early = await client.callTool({ name: 'tabwright.snapshot', arguments: {} });
    expect(textOf(early)).toBe(NOT_CONNECTED);

    const panel = await openPanelTab(launched);
    await addAgentThroughForm(panel, { name: 'Broker', url: broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /Broker: connected/ }).waitFor();
    await panel.getByRole('button', { name: 'Settings' }).click();
    await allowSite(panel, fixtures.allowed);
    await panel.getByRole('button', { name: 'Settings' }).click();
    const page = await openActiveTab(launched, fixtures.url('/index.html'));

    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['tabwright.snapshot', 'tabwright.click', 'tabwright.tabs']));

    const snapshot = textOf(await client.callTool({ name: 'tabwright.snapshot', arguments: {} }));
    expect(snapshot).toContain('Tabwright demo page');
    const ref = /- button "Count" \[ref=(e\d+)\]/.exec(snapshot)?.[1];
    expect(ref).toBeDefined();

    const refused = await client.callTool({ name: 'tabwright.click', arguments: { ref } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('act mode is off');
    expect(await page.locator('#clicks').textContent()).toBe('0');

    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByRole('switch', { name: 'Act mode' }).check();
    await panel.getByRole('button', { name: 'Settings' }).click();
    const clicking = client.callTool({ name: 'tabwright.click', arguments: { ref } });
    await panel.getByRole('button', { name: 'Allow once' }).click();
    const clicked = await clicking;
    expect(clicked.isError).toBeFalsy();
    expect(textOf(clicked)).toContain('Clicked <button> "Count"');
    await expect.poll(() => page.locator('#clicks').textContent()).toBe('1');

    // A ref the page never handed out: the card says so rather than guessing what it names.
    const stale = client.callTool({ name: 'tabwright.click', arguments: { ref: 'e999' } });
    const card = panel.getByRole('alertdialog').filter({ hasText: 'tabwright.click' });
    await card.waitFor();
    expect(await card.locator('.targets li').allInnerTexts()).toEqual([
      'e999 element not found — the action will fail',
    ]);
    expect(await card.locator('.tab-url').innerText()).toBe(`Tab: ${fixtures.url('/index.html')}`);
    await card.getByRole('button', { name: 'Deny' }).click();
    expect(textOf(await stale)).toContain('the user denied this action');
  });

  it('answers with a clear error, not a hang, when the panel goes away mid-call', async () => {
    const panel = launched.context.pages().find((candidate) => candidate.url().startsWith('chrome-extension://'))!;
    const snapshot = textOf(await client.callTool({ name: 'tabwright.snapshot', arguments: {} }));
    const ref = /- button "Count" \[ref=(e\d+)\]/.exec(snapshot)![1];
    const clicking = client.callTool({ name: 'tabwright.click', arguments: { ref } });
    // The click waits for the user's confirmation; the panel closes instead.
    await panel.getByRole('button', { name: 'Allow once' }).waitFor();
    await panel.close();
    const result = await clicking;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/The browser disconnected before the call finished/);
    const after = await client.callTool({ name: 'tabwright.snapshot', arguments: {} });
    expect(textOf(after)).toBe(NOT_CONNECTED);
  });
});
