/**
 * Dialect B end to end: the broker tunnels through the ACP SDK binding (`mcp/message` with
 * `serverId`), the real panel serves it from the same declarations it gives OpenAB, and the demo
 * agent reads and clicks the fixture page through it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import {
  addAgentThroughForm,
  allowSite,
  launchWithExtension,
  openActiveTab,
  openPanelTab,
  sendMessage,
  type Launched,
} from './harness';

const TOKEN = 'dialect-b-token';

describe('the demo agent over dialect B through the real panel', () => {
  let launched: Launched;
  let broker: RunningBroker;
  let fixtures: FixtureServer;

  beforeAll(async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0, dialect: 'b' });
    fixtures = await startFixtureServer();
    launched = await launchWithExtension();
  });
  afterAll(async () => {
    await launched?.close();
    await broker?.close();
    await fixtures?.close();
  });

  it('snapshots, clicks once allowed, and asks a question the user answers', async () => {
    const panel = await openPanelTab(launched);
    await addAgentThroughForm(panel, { name: 'Demo B', url: broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /Demo B: connected/ }).waitFor();
    await panel.getByRole('button', { name: 'Settings' }).click();
    await allowSite(panel, fixtures.allowed);
    await panel.getByRole('switch', { name: 'Act mode' }).check();
    await panel.getByRole('button', { name: 'Settings' }).click();
    const page = await openActiveTab(launched, fixtures.url('/index.html'));
    const replies = panel.locator('article.message.agent.done');

    await sendMessage(panel, 'snapshot');
    await expect.poll(() => replies.count(), { timeout: 15_000 }).toBe(1);
    expect(await replies.nth(0).locator('.body').innerText()).toMatch(/- button "Count" \[ref=e\d+\]/);

    await sendMessage(panel, 'click Count');
    await panel.getByRole('button', { name: 'Allow once' }).click();
    await expect.poll(() => replies.count(), { timeout: 15_000 }).toBe(2);
    expect(await replies.nth(1).locator('.body').innerText()).toContain('Clicked <button> "Count"');
    expect(await page.locator('#clicks').textContent()).toBe('1');

    await sendMessage(panel, 'ask Keep going?');
    await panel.getByRole('button', { name: 'Reject once', exact: true }).first().click();
    await expect.poll(() => replies.count(), { timeout: 15_000 }).toBe(3);
    // Rendered or not, the answer reported is the option the user picked.
    expect(await replies.nth(2).locator('.body').innerText()).toMatch(
      /You answered: \**Reject once\**\s*\(`?reject_once`?\)/,
    );
  });
});
