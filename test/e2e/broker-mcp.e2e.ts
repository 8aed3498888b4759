/**
 * Any MCP client drives the real browser through the broker's `/mcp`: a client built on the
 * official MCP TypeScript SDK lists the panel's tools and clicks a button on a fixture page, and
 * the panel's gates (act mode, allowed sites, confirmation) decide, as for any agent.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { NOT_CONNECTED } from '../../broker/tool-catalog';
import { connectMcpClient } from './broker-mcp-client';
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
    client = await connectMcpClient(broker, TOKEN, 'e2e-mcp-client');
  });
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await launched?.close();
    await broker?.close();
    await fixtures?.close();
  });

  it('lists the tools, works only in a tab of its own, and clicks once the user allows it', async () => {
    const early = await client.callTool({ name: 'tabwright.snapshot', arguments: {} });
    expect(textOf(early)).toBe(NOT_CONNECTED);

    const panel = await openPanelTab(launched);
    await addAgentThroughForm(panel, { name: 'Broker', url: broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /Broker: connected/ }).waitFor();
    await panel.getByRole('button', { name: 'Settings' }).click();
    await allowSite(panel, fixtures.allowed);
    await panel.getByRole('button', { name: 'Settings' }).click();
    // The user's own tab, in front: an MCP client is a caller of its own, and this is not its tab.
    const mine = await openActiveTab(launched, fixtures.url('/index.html'));

    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['tabwright.snapshot', 'tabwright.click', 'tabwright.tabs']));

    const notMine = await client.callTool({ name: 'tabwright.snapshot', arguments: {} });
    expect(notMine.isError).toBe(true);
    expect(textOf(notMine)).toContain('You have no tab of your own');
    expect(textOf(notMine)).toContain('Tabwright is read-only now');
    expect(textOf(notMine)).not.toContain('Tabwright demo page');

    const refused = await client.callTool({
      name: 'tabwright.new_tab',
      arguments: { url: fixtures.url('/index.html') },
    });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('act mode is off');

    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByRole('switch', { name: 'Act mode' }).check();
    await panel.getByRole('button', { name: 'Settings' }).click();
    // Its card names the client, not the agent whose connection carries it.
    const opening = client.callTool({ name: 'tabwright.new_tab', arguments: { url: fixtures.url('/index.html') } });
    const openCard = panel.getByRole('alertdialog').filter({ hasText: 'e2e-mcp-client' });
    await openCard.getByRole('button', { name: 'Allow once' }).click();
    const opened = await opening;
    expect(textOf(opened)).toContain('in the background');
    const tabId = (opened.structuredContent as { tabId: number }).tabId;
    const page = launched.context
      .pages()
      .find((candidate) => candidate !== mine && candidate.url() === fixtures.url('/index.html'))!;
    expect(page).toBeDefined();

    const snapshot = textOf(await client.callTool({ name: 'tabwright.snapshot', arguments: {} }));
    expect(snapshot).toContain('Tabwright demo page');
    const ref = /- button "Count" \[(e\d+)\]/.exec(snapshot)?.[1];
    expect(ref).toBeDefined();

    const clicking = client.callTool({ name: 'tabwright.click', arguments: { ref } });
    await panel.getByRole('button', { name: 'Allow once' }).click();
    const clicked = await clicking;
    expect(clicked.isError).toBeFalsy();
    expect(textOf(clicked)).toContain('Clicked <button> "Count"');
    await expect.poll(() => page.locator('#clicks').textContent()).toBe('1');
    // The user's tab, in front all along, was not touched.
    expect(await mine.locator('#clicks').textContent()).toBe('0');
    const listed = textOf(await client.callTool({ name: 'tabwright.tabs', arguments: {} }));
    expect(listed).toContain(`[${tabId}] (current)`);
    expect(listed).toMatch(/other tabs? (is|are) open, not shared with you/);

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

  it('keeps two clients with the same name apart: their own tabs, cards and audit names', async () => {
    const panel = launched.context.pages().find((candidate) => candidate.url().startsWith('chrome-extension://'))!;
    const twin = () => connectMcpClient(broker, TOKEN, 'Twin');
    const [first, second] = [await twin(), await twin()];
    try {
      const open = async (twinClient: Client, label: string) => {
        const opening = twinClient.callTool({
          name: 'tabwright.new_tab',
          arguments: { url: fixtures.url('/second.html') },
        });
        const card = panel.getByRole('alertdialog').filter({ hasText: `${label} wants` });
        await card.getByRole('button', { name: 'Allow once' }).click();
        return ((await opening).structuredContent as { tabId: number }).tabId;
      };
      const firstTab = await open(first, 'Twin');
      const secondTab = await open(second, 'Twin (2)');
      expect(firstTab).not.toBe(secondTab);

      const firstList = textOf(await first.callTool({ name: 'tabwright.tabs', arguments: {} }));
      expect(firstList).toContain(`[${firstTab}] (current)`);
      expect(firstList).not.toContain(`[${secondTab}]`);
      // The same name does not make the other client's tab its own.
      for (const [tool, args] of [
        ['tabwright.switch_tab', { tabId: firstTab }],
        ['tabwright.close_tab', { tabId: firstTab }],
      ] as const) {
        const refused = await second.callTool({ name: tool, arguments: args });
        expect(refused.isError, tool).toBe(true);
        expect(textOf(refused)).toContain(`Tab ${firstTab} is not shared with you`);
      }
      expect(launched.context.pages().filter((p) => p.url() === fixtures.url('/second.html'))).toHaveLength(2);

      // The audit log is written behind the calls' answers: read it once it holds all four.
      const twins = () =>
        launched.worker.evaluate(async () => {
          const { audit } = await chrome.storage.local.get('audit');
          return ((audit ?? []) as Array<{ agent: string; tool: string; outcome: string }>).filter((entry) =>
            entry.agent.startsWith('Twin'),
          );
        });
      await expect.poll(async () => (await twins()).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(4);
      const audit = await twins();
      expect(audit.filter((entry) => entry.tool === 'new_tab').map((entry) => entry.agent)).toEqual([
        'Twin',
        'Twin (2)',
      ]);
      expect(audit.filter((entry) => entry.outcome === 'refused:target').map((entry) => entry.agent)).toEqual([
        'Twin (2)',
        'Twin (2)',
      ]);
    } finally {
      await first.close().catch(() => undefined);
      await second.close().catch(() => undefined);
    }
  });

  it('answers with a clear error, not a hang, when the panel goes away mid-call', async () => {
    const panel = launched.context.pages().find((candidate) => candidate.url().startsWith('chrome-extension://'))!;
    const snapshot = textOf(await client.callTool({ name: 'tabwright.snapshot', arguments: {} }));
    const ref = /- button "Count" \[(e\d+)\]/.exec(snapshot)![1];
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
