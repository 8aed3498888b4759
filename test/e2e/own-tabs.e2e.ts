/**
 * Agents with tabs of their own, through the built extension in Chromium and the project's broker:
 * two agents connected at once each open and work in their own background tab while the person
 * keeps a tab of theirs in front; neither reaches the other's tab or the person's, and nothing of
 * those tabs appears in any answer. A tab the person closes is reported to the agent that worked
 * in it, ownership lasts through a panel reload, and "Disconnect all" gives every tab back.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { textOf, type CallToolResult, type PanelServer } from '../../broker/panel-tools';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import {
  addAgentThroughForm,
  allowSite,
  launchWithExtension,
  openActiveTab,
  openPanelTab,
  waitFor,
  type Launched,
} from './harness';

const TOKEN = 'own-tabs-token';
const T = { timeout: 30_000 };

describe('agents with tabs of their own', () => {
  let launched: Launched;
  let broker: RunningBroker;
  let fixtures: FixtureServer;
  let panel: Page;
  let person: Page;
  /** Each agent's broker session, by agent name. */
  const sessions = new Map<string, string>();

  /** The agent's browser server, through its own session's tunnel. */
  const serverOf = (agent: string): PanelServer => {
    const session = broker.sessions.all().find((candidate) => candidate.id === sessions.get(agent));
    const server = session?.servers.find((candidate) => candidate.name === 'tabwright');
    if (!server) throw new Error(`${agent} has no browser server`);
    return server;
  };
  /** A call as the agent makes it; a card for it is allowed once. */
  async function call(agent: string, tool: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    const pending = serverOf(agent).call(`tabwright.${tool}`, args);
    let done = false;
    void pending.finally(() => (done = true)).catch(() => undefined);
    const card = panel.locator('section.confirmation').filter({ hasText: `${agent} wants` });
    while (!done) {
      if ((await card.count()) && (await card.getAttribute('data-armed')) === 'true') {
        await card
          .getByRole('button', { name: 'Allow once' })
          .click({ timeout: 2_000 })
          .catch(() => undefined);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return pending;
  }
  const tabIdOf = (result: CallToolResult) => (result.structuredContent as { tabId: number }).tabId;

  async function addAgent(name: string): Promise<void> {
    const before = new Set(broker.sessions.all().map((session) => session.id));
    await addAgentThroughForm(panel, { name, url: broker.url, token: TOKEN, follow: false });
    await panel.getByRole('button', { name: new RegExp(`^${name}: connected`) }).waitFor(T);
    await waitFor(() => {
      const fresh = broker.sessions.all().find((session) => !before.has(session.id) && session.servers.length > 0);
      if (fresh) sessions.set(name, fresh.id);
      return fresh !== undefined;
    }, 30_000);
  }

  beforeAll(async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    fixtures = await startFixtureServer();
    launched = await launchWithExtension();
    panel = await openPanelTab(launched);
    await addAgent('Alpha');
    // The second agent is added from Settings, where the first run's form no longer is.
    await panel.getByRole('button', { name: 'Settings' }).click();
    await addAgent('Beta');
    await allowSite(panel, fixtures.allowed);
    await panel.getByRole('switch', { name: 'Act mode' }).check();
    await panel.getByRole('button', { name: 'Settings' }).click();
    person = await openActiveTab(launched, fixtures.url('/index.html?person'));
  });
  afterAll(async () => {
    await launched?.close();
    await broker?.close();
    await fixtures?.close();
  });

  it('refuses an agent with no tab of its own, naming nothing of the person’s tab', async () => {
    const refused = await call('Alpha', 'snapshot');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('You have no tab of your own');
    expect(textOf(refused)).not.toContain('Tabwright demo page');
    const listed = textOf(await call('Alpha', 'tabs'));
    expect(listed).toContain('You have no tabs of your own');
    expect(listed).not.toContain('index.html');
  });

  it('lets two agents work at once, each in its own background tab, never in the other’s or the person’s', async () => {
    const alphaTab = tabIdOf(await call('Alpha', 'new_tab', { url: fixtures.url('/index.html?alpha') }));
    const betaTab = tabIdOf(await call('Beta', 'new_tab', { url: fixtures.url('/second.html?beta') }));
    // Both opened in the background: the person's tab is still in front.
    expect(await person.evaluate(() => document.visibilityState)).toBe('visible');

    const [alphaRead, betaRead] = await Promise.all([call('Alpha', 'snapshot'), call('Beta', 'snapshot')]);
    expect(textOf(alphaRead)).toContain('index.html?alpha');
    expect(textOf(betaRead)).toContain('second.html?beta');
    const alphaSnapshot = textOf(alphaRead);
    const count = /- button "Count" \[(\w+)\]/.exec(alphaSnapshot)![1];
    const clicked = await call('Alpha', 'click', { ref: count });
    expect(textOf(clicked)).toContain('Clicked <button> "Count"');
    const alphaPage = launched.context.pages().find((page) => page.url().endsWith('?alpha'))!;
    await expect.poll(() => alphaPage.locator('#clicks').textContent()).toBe('1');
    expect(await person.locator('#clicks').textContent()).toBe('0');

    // The other agent's tab, and the person's, are not theirs to touch or to name.
    const personTab = await launched.worker.evaluate(async () => {
      const [tab] = await chrome.tabs.query({ url: '*://127.0.0.1/index.html?person' });
      return tab!.id!;
    });
    for (const [tool, args] of [
      ['switch_tab', { tabId: betaTab }],
      ['close_tab', { tabId: betaTab }],
      ['switch_tab', { tabId: personTab }],
      ['close_tab', { tabId: personTab }],
    ] as const) {
      const refused = await call('Alpha', tool, args);
      expect(refused.isError, `${tool} ${args.tabId}`).toBe(true);
      expect(textOf(refused)).toContain(`Tab ${args.tabId} is not shared with you`);
      expect(textOf(refused)).not.toMatch(/second\.html|index\.html\?person|Second page/);
    }
    const alphaTabs = textOf(await call('Alpha', 'tabs'));
    expect(alphaTabs).toContain(`[${alphaTab}] (current)`);
    expect(alphaTabs).not.toContain(`[${betaTab}]`);
    expect(alphaTabs).not.toContain(`[${personTab}]`);
    expect(alphaTabs).toMatch(/\d+ other tabs are open, not shared with you/);
    expect(alphaTabs).not.toMatch(/second\.html|person/);
  });

  it('keeps each agent’s tabs through a panel reload', async () => {
    await panel.reload();
    await panel.getByRole('button', { name: /^Alpha: connected/ }).waitFor(T);
    await panel.getByRole('button', { name: /^Beta: connected/ }).waitFor(T);
    for (const name of ['Alpha', 'Beta']) {
      await waitFor(() => {
        const fresh = broker.sessions
          .all()
          .filter((session) => session.servers.length > 0)
          .sort((a, b) => b.attachedAt - a.attachedAt);
        return fresh.length >= 2 && fresh.some((session) => session.id === sessions.get(name));
      }, 30_000);
    }
    expect(textOf(await call('Alpha', 'snapshot'))).toContain('index.html?alpha');
    expect(textOf(await call('Beta', 'snapshot'))).toContain('second.html?beta');
  });

  it('tells the agent when the person closed the tab it worked in, and lists what it has left', async () => {
    const extra = tabIdOf(await call('Beta', 'new_tab', { url: fixtures.url('/index.html?beta-extra') }));
    const betaPage = launched.context.pages().find((page) => page.url().endsWith('?beta-extra'))!;
    await betaPage.close();
    const told = await call('Beta', 'snapshot');
    expect(told.isError).toBe(true);
    expect(textOf(told)).toContain(`The user closed tab ${extra}, the one you were working in`);
    expect(textOf(told)).toMatch(/Your tabs: \d+; switch_tab to one of them/);
  });

  it('gives every tab back on "Disconnect all"', async () => {
    await panel.getByRole('button', { name: 'Disconnect all' }).click();
    const owners = await panel.evaluate(async () => {
      const stored = await chrome.storage.session.get(null);
      return Object.entries(stored)
        .filter(([key]) => key.startsWith('tabOwnership:'))
        .map(([, value]) => (value as { owners: unknown[] }).owners.length);
    });
    expect(owners).toEqual([0]);
  });
});
