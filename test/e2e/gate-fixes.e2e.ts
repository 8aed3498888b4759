/**
 * Fixes for calls refused by the person's own settings, in real Chromium with the project's broker
 * over a real WebSocket: a card beside the agent's message names the change ("Allow
 * localhost:PORT", "Turn on act mode", "Share this tab with Actor"), nothing changes until the
 * person presses it, the agent is told nothing new, and the call re-issued after the press works.
 * A blocklisted site is never offered.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActionRig, textOf, type ActionRig } from './actions-rig';
import { sendMessage } from './harness';

const fixCards = (panel: Page) => panel.getByRole('group', { name: 'Refused by your settings' });

describe('inline fixes for refused calls', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    rig = await startActionRig();
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('offers no fix for a blocklisted site, even one that is not allowed either', async () => {
    const { panel, fixtures } = rig;
    await panel.getByRole('button', { name: 'Settings' }).click();
    for (const rule of ['127.0.0.1/gates/blocked', 'localhost/gates/blocked']) {
      await panel.getByRole('textbox', { name: 'Site to block' }).fill(rule);
      await panel.getByRole('button', { name: 'Block site' }).click();
      await panel.getByRole('list', { name: 'Added by you' }).getByText(rule).waitFor();
    }
    await panel.getByRole('button', { name: 'Settings' }).click();
    for (const origin of [fixtures.allowed, fixtures.other]) {
      await rig.launched.context.newPage().then(async (tab) => {
        await tab.goto(`${origin}/gates/blocked/secret.html`);
        await tab.bringToFront();
        const text = textOf(await rig.call('snapshot'));
        expect(text).toContain('high-risk blocklist');
        await tab.close();
      });
    }
    // The refusal reaches the panel before the agent hears it: a card would be drawn by now.
    expect(await fixCards(panel).count()).toBe(0);
  });

  it('"Allow <site>" allows nothing until pressed; then the same call works', async () => {
    const { panel, fixtures } = rig;
    const tab = await rig.launched.context.newPage();
    await tab.goto(`${fixtures.other}/fixes/shop.html`);
    await tab.bringToFront();
    const host = new URL(fixtures.other).host;
    const refused = textOf(await rig.call('snapshot'));
    // What the agent is told is what it was always told.
    expect(refused).toBe(
      `Refused: ${fixtures.other} is not an allowed site. Only the user can allow it, in Tabwright settings; ask them.`,
    );
    const card = fixCards(panel).filter({ hasText: `Actor asked for snapshot on ${fixtures.other}` });
    const allow = card.getByRole('button', { name: `Allow ${host}` });
    await allow.waitFor();
    // Agents retry: the same refusal does not add a second card, and nothing was allowed meanwhile.
    expect(textOf(await rig.call('snapshot'))).toBe(refused);
    expect(await fixCards(panel).count()).toBe(1);
    await allow.click();
    await card
      .getByRole('status')
      .getByText(/its next call can go through/)
      .waitFor();
    expect(textOf(await rig.call('snapshot'))).toContain('Place order');
    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByRole('list', { name: 'Allowed sites' }).getByText(fixtures.other, { exact: true }).waitFor();
    await panel.getByRole('button', { name: 'Settings' }).click();
    await tab.close();
  });

  it('"Turn on act mode" turns nothing on until pressed; then the same click works', async () => {
    const { panel } = rig;
    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByRole('switch', { name: 'Act mode' }).uncheck();
    await panel.getByRole('button', { name: 'Settings' }).click();
    const tab = await rig.open('/fixes/shop.html');
    const ref = /button "Place order" \[([^\]]+)\]/.exec(textOf(await rig.call('snapshot')))![1]!;
    const refused = textOf(await rig.call('click', { ref }));
    expect(refused).toMatch(/^Refused: act mode is off/);
    const card = fixCards(panel).filter({ hasText: 'Actor asked for click, but act mode is off' });
    const turnOn = card.getByRole('button', { name: 'Turn on act mode' });
    await turnOn.waitFor();
    expect(textOf(await rig.call('click', { ref }))).toBe(refused);
    expect(await tab.locator('#state').textContent()).toBe('Nothing ordered yet.');
    await turnOn.click();
    await card.getByRole('status').waitFor();
    expect(textOf(await rig.call('click', { ref }))).not.toMatch(/Refused/);
    expect(await tab.locator('#state').textContent()).toBe('ORDER-PLACED');
    await tab.close();
  });
});

describe('the fix beside an agent that was refused', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    rig = await startActionRig();
  });

  afterAll(async () => {
    await rig?.close();
  });

  it("sits in the agent's own message with its tool card, and nothing in the message is cut at 360 px", async () => {
    const { panel } = rig;
    await panel.setViewportSize({ width: 360, height: 800 });
    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByRole('switch', { name: 'Act mode' }).uncheck();
    await panel.getByRole('button', { name: 'Settings' }).click();
    const tab = await rig.open('/fixes/shop.html');
    await sendMessage(panel, 'click Place order');
    const message = panel
      .locator('article.message.agent')
      .filter({ has: panel.locator('.card.tool') })
      .last();
    const fix = message.getByRole('group', { name: 'Refused by your settings' });
    await fix.getByRole('button', { name: 'Turn on act mode' }).waitFor({ timeout: 30_000 });
    await panel.locator('article.message.agent.done').last().waitFor({ timeout: 30_000 });
    for (const summary of await message.locator('.card.tool summary').all()) await summary.click();
    await message
      .getByText(/Refused: act mode is off/)
      .first()
      .waitFor();
    const cut = await message.evaluate((article) =>
      [...article.querySelectorAll<HTMLElement>('*')]
        .filter((node) => node.scrollWidth > node.clientWidth + 1 && getComputedStyle(node).overflowX !== 'visible')
        .map((node) => `${node.tagName}.${node.className}: ${node.textContent?.slice(0, 60)}`),
    );
    expect(cut).toEqual([]);
    expect(await tab.locator('#state').textContent()).toBe('Nothing ordered yet.');
    await tab.close();
  });
});

describe('inline fix for an agent with no tab shared with it', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    rig = await startActionRig({ follow: false });
  });

  afterAll(async () => {
    await rig?.close();
  });

  it('"Share this tab with Actor" shares nothing until pressed; then the same call reads the tab', async () => {
    const { panel } = rig;
    const tab = await rig.open('/fixes/shop.html');
    const refused = textOf(await rig.call('snapshot'));
    expect(refused).toMatch(/^You have no tab of your own/);
    const share = fixCards(panel).getByRole('button', { name: 'Share this tab with Actor' });
    await share.waitFor();
    expect(textOf(await rig.call('snapshot'))).toBe(refused);
    await share.click();
    await fixCards(panel).getByRole('status').waitFor();
    expect(textOf(await rig.call('snapshot'))).toContain('Place order');
    await tab.close();
  });
});
