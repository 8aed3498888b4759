/**
 * What the user sees while an agent works, through the real panel and real Chrome tab groups:
 * tabs an agent works in join a group named after it (one per agent, in its colour), a tab the
 * user takes out stays out, the group goes when its agent disconnects or groups are turned off;
 * and while an action runs the page shows an outline naming the agent, which no snapshot, find or
 * click ever meets, and which is gone once the action ends, is cancelled, or is turned off.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PanelServer } from '../../broker/panel-tools';
import { PNG } from 'pngjs';
import { colourFor, OUTLINE_COLOURS } from '../../src/presence/colours';
import { refIn, startActionRig, textOf, type ActionRig } from './actions-rig';
import { addAgentThroughForm, waitFor } from './harness';

interface GroupView {
  title: string;
  color: string;
  urls: string[];
}

async function groups(rig: ActionRig): Promise<GroupView[]> {
  return rig.launched.worker.evaluate(async () => {
    const all = await chrome.tabGroups.query({});
    return Promise.all(
      all.map(async (group) => ({
        title: group.title ?? '',
        color: group.color,
        urls: (await chrome.tabs.query({ groupId: group.id })).map((tab) => tab.url ?? ''),
      })),
    );
  });
}

async function agentIds(rig: ActionRig): Promise<Record<string, string>> {
  return rig.launched.worker.evaluate(async () => {
    const { settings } = (await chrome.storage.local.get('settings')) as {
      settings: { agents: Array<{ id: string; name: string }> };
    };
    return Object.fromEntries(settings.agents.map((agent) => [agent.name, agent.id]));
  });
}

/** Chrome's own view of the page, closed shadow roots included: the outline's words, or undefined. */
async function outlineText(page: Page): Promise<string | undefined> {
  interface DomNode {
    nodeName: string;
    nodeType: number;
    nodeValue: string;
    children?: DomNode[];
    shadowRoots?: DomNode[];
  }
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
    const text = (node: DomNode): string =>
      node.nodeType === 3 ? node.nodeValue : [...(node.shadowRoots ?? []), ...(node.children ?? [])].map(text).join('');
    const find = (node: DomNode): DomNode | undefined =>
      node.nodeName === 'TABWRIGHT-OUTLINE' ? node : (node.children ?? []).map(find).find(Boolean);
    const host = find(root);
    return host && text(host);
  } finally {
    await cdp.detach();
  }
}

const outlineCount = (page: Page) => page.locator('tabwright-outline').count();

async function toggleSetting(rig: ActionRig, name: string, on: boolean): Promise<void> {
  const { panel } = rig;
  await panel.getByRole('button', { name: 'Settings', exact: true }).click();
  const toggle = panel.getByRole('switch', { name });
  if (on) await toggle.check();
  else await toggle.uncheck();
  await expect.poll(() => toggle.isChecked()).toBe(on);
  await panel.getByRole('button', { name: 'Settings', exact: true }).click();
}

describe('what the user sees while an agent works', () => {
  let rig: ActionRig;
  let ids: Record<string, string>;
  let first: Page;
  let second: Page;
  let secondAgent: PanelServer;

  beforeAll(async () => {
    rig = await startActionRig();
    ids = await agentIds(rig);
  }, 120_000);
  afterAll(async () => {
    await rig?.close();
  });

  it('puts the tabs an agent works in into one group named after it, in its colour', async () => {
    first = await rig.open('/presence/outline.html');
    await rig.call('snapshot');
    await expect
      .poll(() => groups(rig))
      .toEqual([{ title: 'Actor', color: colourFor(ids.Actor!), urls: [first.url()] }]);
    second = await rig.open('/index.html');
    await rig.call('snapshot');
    await expect
      .poll(async () => (await groups(rig)).map((g) => ({ ...g, urls: g.urls.sort() })))
      .toEqual([{ title: 'Actor', color: colourFor(ids.Actor!), urls: [first.url(), second.url()].sort() }]);
  });

  it('gives a second agent a group of its own', async () => {
    const before = new Set(rig.broker.sessions.all().map((session) => session.id));
    await rig.panel.getByRole('button', { name: 'Settings', exact: true }).click();
    await addAgentThroughForm(rig.panel, { name: 'Second', url: rig.broker.url, token: 'actions-token' });
    await rig.panel.getByRole('button', { name: /^Second: connected/ }).waitFor({ timeout: 30_000 });
    await rig.panel.getByRole('button', { name: 'Settings', exact: true }).click();
    await waitFor(() => {
      const session = rig.broker.sessions.all().find((s) => !before.has(s.id) && s.servers.length > 0);
      if (session) secondAgent = session.servers[0]!;
      return session !== undefined;
    }, 30_000);
    ids = await agentIds(rig);
    const third = await rig.open('/second.html');
    await secondAgent.call(`${secondAgent.name}.snapshot`, {});
    await expect
      .poll(async () => (await groups(rig)).map((g) => ({ title: g.title, color: g.color, urls: g.urls.length })))
      .toEqual(
        expect.arrayContaining([
          { title: 'Actor', color: colourFor(ids.Actor!), urls: 2 },
          { title: 'Second', color: colourFor(ids.Second!), urls: 1 },
        ]),
      );
    expect((await groups(rig)).find((g) => g.title === 'Second')?.urls).toEqual([third.url()]);
    expect(await groups(rig)).toHaveLength(2);
  });

  it('leaves a tab the user took out of the group where they put it', async () => {
    // What a drag out of the group does, as Chrome reports it: the tab leaves the group.
    await rig.launched.worker.evaluate(async (url) => {
      const [tab] = await chrome.tabs.query({ url });
      await chrome.tabs.ungroup(tab!.id!);
    }, second.url());
    await expect.poll(async () => (await groups(rig)).find((g) => g.title === 'Actor')?.urls).toEqual([first.url()]);
    await second.bringToFront();
    await rig.call('snapshot');
    await rig.call('scroll', { direction: 'down', amount: 10 });
    expect((await groups(rig)).find((g) => g.title === 'Actor')?.urls).toEqual([first.url()]);
  });

  /** Runs `during` while a click that keeps the page busy (about 3 s) is under way, then checks the outline went. */
  async function duringSlowAction(during: (snapshot: string) => Promise<void>): Promise<void> {
    await first.bringToFront();
    const snapshot = textOf(await rig.call('snapshot'));
    expect(await outlineCount(first)).toBe(0);
    const slow = rig.call('click', { ref: refIn(snapshot, /button "Start busy work"/) });
    await expect.poll(() => outlineCount(first), { timeout: 10_000 }).toBe(1);
    await during(snapshot);
    const result = textOf(await slow);
    expect(result).toMatch(/^Clicked <button> "Start busy work"/);
    // Not in the diff either.
    expect(result).not.toMatch(/working in this tab/);
    expect(await outlineCount(first)).toBe(0);
  }

  it('outlines the page in the agent’s colour during a slow action, naming the agent', async () => {
    await duringSlowAction(async () => {
      const picture = PNG.sync.read(await first.screenshot());
      expect(await first.locator('tabwright-outline').boundingBox()).toEqual({ x: 0, y: 0, width: 1100, height: 800 });
      const at = (x: number, y: number) => {
        const i = (picture.width * y + x) * 4;
        return `#${[0, 1, 2].map((c) => picture.data[i + c]!.toString(16).padStart(2, '0')).join('')}`;
      };
      const colour = OUTLINE_COLOURS[colourFor(ids.Actor!)];
      expect([at(300, 0), at(0, 400), at(1099, 400), at(300, 799)]).toEqual([colour, colour, colour, colour]);
      expect(at(300, 100)).not.toBe(colour);
      expect(await outlineText(first)).toBe('Actor is working in this tab');
    });
  });

  it('keeps the outline out of a snapshot and a find asked for while the action runs, which wait their turn', async () => {
    await duringSlowAction(async () => {
      // Page calls on one tab run one at a time: the snapshot waits for the action to end.
      const asked = rig.call('snapshot', { selector: 'html' });
      const state = await Promise.race([
        asked.then(() => 'answered'),
        new Promise((resolve) => setTimeout(() => resolve('waiting'), 500)),
      ]);
      expect(state).toBe('waiting');
      const during = textOf(await asked);
      expect(during).toContain('button "Start busy work"');
      expect(during).not.toMatch(/working in this tab|tabwright/i);
      const found = textOf(await rig.call('find', { text: 'working' }));
      expect(found).not.toMatch(/working in this tab/);
    });
  });

  it('never takes a click: a person’s and the agent’s both reach the button under the label', async () => {
    await duringSlowAction(async (snapshot) => {
      const box = (await first.locator('#corner').boundingBox())!;
      const [x, y] = [box.x + box.width - 40, box.y + 8];
      expect(await first.evaluate(([px, py]) => document.elementFromPoint(px!, py!)?.id, [x, y])).toBe('corner');
      await first.mouse.click(x, y);
      await expect.poll(() => first.locator('#corner-clicks').textContent()).toBe('1');
      const corner = textOf(await rig.call('click', { ref: refIn(snapshot, /button "Corner"/) }));
      expect(corner).toMatch(/^Clicked <button> "Corner"/);
      await expect.poll(() => first.locator('#corner-clicks').textContent()).toBe('2');
    });
  });

  it('removes the outline when the action is cancelled', async () => {
    await first.bringToFront();
    const snapshot = textOf(await rig.call('snapshot'));
    const controller = new AbortController();
    const pending = rig.call('click', { ref: refIn(snapshot, /button "Start busy work"/) }, controller.signal);
    await expect.poll(() => outlineCount(first), { timeout: 10_000 }).toBe(1);
    controller.abort(new Error('the agent stopped'));
    await expect(pending).rejects.toThrow(/cancelled/i);
    await expect.poll(() => outlineCount(first), { timeout: 2_000 }).toBe(0);
  });

  it('removes the outline when the action fails, and when it took the page elsewhere', async () => {
    await first.bringToFront();
    const snapshot = textOf(await rig.call('snapshot'));
    const failed = await rig.call('click', { selector: '#no-such-element' });
    expect(failed.isError).toBe(true);
    expect(await outlineCount(first)).toBe(0);

    const away = textOf(await rig.call('click', { ref: refIn(snapshot, /link "Go to the second page"/) }));
    expect(away).toMatch(/the page changed to .*\/second\.html/);
    expect(await outlineCount(first)).toBe(0);
    // Coming back (from the back-forward cache or not) finds no outline left on the first page.
    await first.goBack();
    await first.locator('#slow').waitFor();
    expect(await outlineCount(first)).toBe(0);
  });

  it('shows no outline once the user turns it off', async () => {
    await toggleSetting(rig, 'Outline pages during actions', false);
    await first.bringToFront();
    const snapshot = textOf(await rig.call('snapshot'));
    let seen = 0;
    const pending = rig.call('click', { ref: refIn(snapshot, /button "Start busy work"/) });
    let done = false;
    void pending.finally(() => (done = true));
    while (!done) {
      seen = Math.max(seen, await outlineCount(first));
      await first.waitForTimeout(50);
    }
    expect(textOf(await pending)).toMatch(/^Clicked <button> "Start busy work"/);
    expect(seen).toBe(0);
    await toggleSetting(rig, 'Outline pages during actions', true);
  });

  it('removes an agent’s group when it disconnects, and the rest when groups are turned off', async () => {
    await rig.panel.getByRole('button', { name: /^Actor: connected/ }).click();
    await rig.panel.getByRole('button', { name: 'Disconnect Actor' }).click();
    await expect.poll(async () => (await groups(rig)).map((g) => g.title)).toEqual(['Second']);

    await toggleSetting(rig, 'Group agent tabs', false);
    await expect.poll(() => groups(rig)).toEqual([]);
    // Off means off: the agent working again makes no group.
    await secondAgent.call(`${secondAgent.name}.snapshot`, {});
    expect(await groups(rig)).toEqual([]);
  });

  it('takes the groups away when the panel closes', async () => {
    await toggleSetting(rig, 'Group agent tabs', true);
    await secondAgent.call(`${secondAgent.name}.snapshot`, {});
    await expect.poll(async () => (await groups(rig)).map((g) => g.title)).toEqual(['Second']);
    await rig.panel.close();
    await expect.poll(() => groups(rig)).toEqual([]);
  });
});
