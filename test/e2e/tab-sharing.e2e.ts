/**
 * The person gives and takes tabs, through the real panel and real Chrome tab groups, with an agent
 * that works in tabs of its own ("Follow my current tab" off): a tab is read only once the person
 * shares it ("Share this tab with <agent>", beside the message box), and not after they take it
 * back ("Take back <title>" in the agent's details); giving it to another agent takes it from the
 * first; the agent's group is its set of tabs, so a tab dragged into it is shared and one dragged
 * out is taken back; a tab moved to another window stays the agent's; and all of it outlasts the
 * panel being reloaded.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PanelServer } from '../../broker/panel-tools';
import { startActionRig, textOf, type ActionRig } from './actions-rig';
import { addAgentThroughForm, waitFor } from './harness';

const DEMO_TITLE = 'Tabwright demo page';

async function tabIdOf(rig: ActionRig, page: Page): Promise<number> {
  return rig.launched.worker.evaluate(async (url) => (await chrome.tabs.query({ url }))[0]!.id!, page.url());
}

/** Each group's title and the URLs of its tabs. */
async function groups(rig: ActionRig): Promise<Array<{ title: string; urls: string[] }>> {
  return rig.launched.worker.evaluate(async () => {
    const all = await chrome.tabGroups.query({});
    return Promise.all(
      all.map(async (group) => ({
        title: group.title ?? '',
        urls: (await chrome.tabs.query({ groupId: group.id })).map((tab) => tab.url ?? ''),
      })),
    );
  });
}

const groupOf = async (rig: ActionRig, title: string) => (await groups(rig)).find((g) => g.title === title)?.urls;

describe('the person gives and takes tabs', () => {
  let rig: ActionRig;
  let inbox: Page;
  let inboxId: number;
  let second: PanelServer;
  /** The broker session of the first agent, Actor: it keeps its id when the panel reconnects. */
  let actorSession: string;

  const region = () => rig.panel.getByRole('region', { name: 'Tab in front' });
  const share = (agent: string) => region().getByRole('button', { name: `Share this tab with ${agent}`, exact: true });
  const snapshotBy = (server: PanelServer) => server.call(`${server.name}.snapshot`, {});

  beforeAll(async () => {
    rig = await startActionRig({ follow: false });
    actorSession = rig.broker.sessions.all().find((session) => session.servers.length > 0)!.id;
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('refuses the tab in front until it is shared, then reads it there, leaving it in front', async () => {
    inbox = await rig.open('/index.html');
    inboxId = await tabIdOf(rig, inbox);
    const before = await rig.call('snapshot');
    expect(before.isError).toBe(true);
    expect(textOf(before)).toContain('You have no tab of your own');
    const named = await rig.call('switch_tab', { tabId: inboxId });
    expect(named.isError).toBe(true);
    expect(textOf(named)).toContain(`Tab ${inboxId} is not shared with you`);
    expect(textOf(named)).not.toContain(DEMO_TITLE);

    await expect.poll(() => region().textContent()).toContain(DEMO_TITLE);
    await share('Actor').click();
    await expect.poll(() => region().textContent()).toContain('Shared with Actor');
    const after = await rig.call('snapshot');
    expect(after.isError).toBeFalsy();
    expect(textOf(after)).toContain(`# snapshot — ${DEMO_TITLE}`);
    // Sharing moved nothing in front of the person: the tab they are on is still the one in front.
    const active = await rig.launched.worker.evaluate(async (id) => (await chrome.tabs.get(id)).active, inboxId);
    expect(active).toBe(true);
    expect(await inbox.evaluate(() => document.visibilityState)).toBe('visible');
    // With groups on, the agent's group is its set of tabs.
    await expect.poll(() => groupOf(rig, 'Actor')).toEqual([inbox.url()]);
  });

  it('takes a tab back from the agent’s details, and the agent is refused again', async () => {
    await rig.panel.getByRole('button', { name: /^Actor: connected/ }).click();
    const details = rig.panel.getByRole('region', { name: 'Details of Actor' });
    const tabs = details.getByRole('region', { name: "Actor's tabs" });
    await tabs.getByRole('button', { name: `Take back ${DEMO_TITLE}`, exact: true }).click();
    await expect.poll(() => tabs.textContent()).toContain('No tab is shared with Actor');
    const refused = await rig.call('snapshot');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).not.toContain(DEMO_TITLE);
    expect(textOf(await rig.call('switch_tab', { tabId: inboxId }))).toContain('is not shared with you');
    await expect.poll(() => groupOf(rig, 'Actor')).toBeUndefined();
    await rig.panel.getByRole('button', { name: /^Actor: connected/ }).click();
  });

  it('gives the tab to a second agent, which takes it from the first', async () => {
    const before = new Set(rig.broker.sessions.all().map((session) => session.id));
    await rig.panel.getByRole('button', { name: 'Settings', exact: true }).click();
    await addAgentThroughForm(rig.panel, {
      name: 'Second',
      url: rig.broker.url,
      token: 'actions-token',
      follow: false,
    });
    await rig.panel.getByRole('button', { name: /^Second: connected/ }).waitFor({ timeout: 30_000 });
    await rig.panel.getByRole('button', { name: 'Settings', exact: true }).click();
    await waitFor(() => {
      const session = rig.broker.sessions.all().find((s) => !before.has(s.id) && s.servers.length > 0);
      if (session) second = session.servers[0]!;
      return session !== undefined;
    }, 30_000);

    await share('Actor').click();
    expect(textOf(await rig.call('snapshot'))).toContain(`# snapshot — ${DEMO_TITLE}`);
    await share('Second').click();
    await expect.poll(() => region().textContent()).toContain('Shared with Second');
    expect(textOf(await snapshotBy(second))).toContain(`# snapshot — ${DEMO_TITLE}`);
    const taken = await rig.call('snapshot');
    expect(taken.isError).toBe(true);
    expect(textOf(await rig.call('tabs'))).toContain('You have no tabs of your own');
    await expect.poll(() => groupOf(rig, 'Second')).toEqual([inbox.url()]);
    expect(await groupOf(rig, 'Actor')).toBeUndefined();
    // Back to the person, for the tests that follow.
    await region()
      .getByRole('button', { name: `Take back ${DEMO_TITLE}`, exact: true })
      .click();
    await expect.poll(() => groupOf(rig, 'Second')).toBeUndefined();
  });

  it('shares a tab the person drags into the agent’s group, and takes back one dragged out', async () => {
    await inbox.bringToFront();
    await share('Actor').click();
    await expect.poll(() => groupOf(rig, 'Actor')).toEqual([inbox.url()]);
    const other = await rig.open('/second.html');
    const otherId = await tabIdOf(rig, other);
    // What a drag into the group does, as Chrome reports it (not a move the panel made).
    await rig.launched.worker.evaluate(
      async ([tabId, url]) => {
        const [grouped] = await chrome.tabs.query({ url: url! });
        await chrome.tabs.group({ tabIds: tabId!, groupId: grouped!.groupId });
      },
      [otherId, inbox.url()] as const,
    );
    await expect.poll(async () => textOf(await rig.call('tabs'))).toContain(`[${otherId}] (current)`);
    expect(textOf(await rig.call('snapshot'))).toContain('# snapshot — Second page');

    await rig.launched.worker.evaluate((tabId) => chrome.tabs.ungroup(tabId), otherId);
    await expect.poll(async () => textOf(await rig.call('tabs'))).not.toContain(`[${otherId}]`);
    expect(textOf(await rig.call('switch_tab', { tabId: otherId }))).toContain('is not shared with you');
    // The tab it still has stays in its group, and is its own.
    expect(await groupOf(rig, 'Actor')).toEqual([inbox.url()]);
    expect(textOf(await rig.call('switch_tab', { tabId: inboxId }))).toContain(`Switched to tab ${inboxId}`);
    await other.close();
  });

  it('keeps a tab the person moves to another window with its agent', async () => {
    const moved = await rig.launched.worker.evaluate(async (tabId) => {
      const created = await chrome.windows.create({ tabId });
      return created!.id!;
    }, inboxId);
    await expect
      .poll(() => rig.launched.worker.evaluate(async (id) => (await chrome.tabs.get(id)).windowId, inboxId))
      .toBe(moved);
    // Chrome's reports of the move have reached the panel by the time it answers this.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(textOf(await rig.call('tabs'))).toContain(`[${inboxId}] (current)`);
    expect(textOf(await rig.call('snapshot'))).toContain(`# snapshot — ${DEMO_TITLE}`);
  });

  it('keeps who has which tab when the panel is reloaded', async () => {
    const before = rig.broker.sessions.all().find((session) => session.id === actorSession)!.servers[0];
    await rig.reloadPanel();
    // Both agents reconnect; Actor is asked through its own session, whichever attached last.
    let actor: PanelServer | undefined;
    await waitFor(() => {
      const server = rig.broker.sessions.all().find((session) => session.id === actorSession)?.servers[0];
      if (server && server !== before) actor = server;
      return actor !== undefined;
    }, 30_000);
    expect(textOf(await snapshotBy(actor!))).toContain(`# snapshot — ${DEMO_TITLE}`);
    // And Second, whose tab was taken back, still has none.
    await rig.panel.getByRole('button', { name: /^Second: connected/ }).waitFor({ timeout: 30_000 });
    const fresh = rig.broker.sessions
      .all()
      .find((session) => session.servers.length > 0 && session.id !== actorSession);
    expect(textOf(await snapshotBy(fresh!.servers[0]!))).toContain('You have no tab of your own');
    await rig.panel.getByRole('button', { name: /^Actor: connected/ }).click();
    const tabs = rig.panel.getByRole('region', { name: "Actor's tabs" });
    await tabs.getByRole('button', { name: `Take back ${DEMO_TITLE}`, exact: true }).waitFor();
  });
});
