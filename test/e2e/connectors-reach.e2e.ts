/**
 * A connector turned on while an agent is connected reaches that agent in the same session: the
 * agent's next `tools/list` (an MCP client of the broker's `/mcp`, built on the official SDK) has
 * the connector's tools, and nobody pressed reconnect.
 */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { connectMcpClient } from './broker-mcp-client';
import { addAgentThroughForm, launchWithExtension, openPanelTab, waitFor, type Launched } from './harness';

const TOKEN = 'connector-reach-token';

describe('a connector turned on reaches the connected agent', () => {
  let launched: Launched;
  let broker: RunningBroker;
  let client: Client;

  beforeAll(async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    launched = await launchWithExtension();
    client = await connectMcpClient(broker, TOKEN, 'e2e-reach-client');
  });
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await launched?.close();
    await broker?.close();
  });

  it('lists the connector after "Enable", in the same session, without a reconnect', async () => {
    const panel = await openPanelTab(launched);
    await addAgentThroughForm(panel, { name: 'Demo', url: broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 30_000 });
    const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
    await waitFor(async () => (await names()).includes('tabwright.snapshot'));
    expect((await names()).some((name) => name.startsWith('fossil.'))).toBe(false);
    const sessionsBefore = broker.sessions.all().map((session) => session.id);

    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByRole('checkbox', { name: 'Enable Fossil' }).check();
    // Settings lists it among what the agent is offered, and asks for no reconnect.
    await panel.getByRole('checkbox', { name: 'Offer fossil to Demo' }).waitFor();

    await waitFor(async () => (await names()).some((name) => name.startsWith('fossil.')), 15_000);
    expect(await names()).toEqual(expect.arrayContaining(['tabwright.snapshot', 'fossil.list_my_tickets']));
    expect(broker.sessions.all().map((session) => session.id)).toEqual(sessionsBefore);
    await expect(panel.getByRole('button', { name: /Demo: connected/ }).count()).resolves.toBe(1);
  });

  it('offers a connector to the agent again as soon as "Offer … to Demo" is ticked', async () => {
    const panel = (await launched.context.pages()).find((page) => page.url().includes('sidepanel'))!;
    const names = async () => (await client.listTools()).tools.map((tool) => tool.name);
    const offer = panel.getByRole('checkbox', { name: 'Offer fossil to Demo' });
    await offer.uncheck();
    // The agent's next session is declared without it.
    await panel.getByRole('button', { name: 'Reconnect Demo' }).click();
    await panel.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 30_000 });
    await waitFor(async () => !(await names()).some((name) => name.startsWith('fossil.')), 15_000);

    await offer.check();
    await waitFor(async () => (await names()).some((name) => name.startsWith('fossil.')), 15_000);
    await expect(panel.getByText('changes when it reconnects').count()).resolves.toBe(0);
  });
});
