/**
 * The chat keeps its place: a person reading an older reply finds it where they left it after
 * opening and closing Settings, and after "Disconnect all".
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { addAgentThroughForm, launchWithExtension, openPanelTab, sendMessage, type Launched } from './harness';

const TOKEN = 'scroll-token';

const scrollTop = (panel: Page) => panel.locator('#transcript').evaluate((log) => log.scrollTop);

describe('the chat keeps its place, and Settings says where things are', () => {
  let launched: Launched;
  let broker: RunningBroker;

  beforeAll(async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    launched = await launchWithExtension();
  });
  afterAll(async () => {
    await launched?.close();
    await broker?.close();
  });

  it('across opening and closing Settings, and "Disconnect all"', async () => {
    const panel = await openPanelTab(launched);
    await panel.setViewportSize({ width: 360, height: 700 });
    await addAgentThroughForm(panel, { name: 'Demo', url: broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 30_000 });
    // The empty chat suggests what the demo agent answers, and "/" lists its commands.
    await panel.getByText(/^Say hello to Demo, the demo agent\./).waitFor();
    // The agent offers its commands in an update after its session starts: "/" lists them once it has.
    const help = panel.getByRole('listbox', { name: 'Commands' }).getByRole('option', { name: /^\/help/ });
    await expect
      .poll(
        async () => {
          await panel.getByRole('textbox', { name: 'Message' }).fill('');
          await panel.getByRole('textbox', { name: 'Message' }).fill('/');
          return help.count();
        },
        { timeout: 30_000 },
      )
      .toBe(1);
    await panel.getByRole('textbox', { name: 'Message' }).fill('');
    for (let n = 1; n <= 4; n++) {
      await sendMessage(panel, 'help');
      await panel
        .locator('article.message.agent.done')
        .nth(n - 1)
        .waitFor({ timeout: 30_000 });
    }
    // The replies have finished drawing and the view has followed them to the end.
    const end = () => panel.locator('#transcript').evaluate((log) => log.scrollHeight - log.clientHeight);
    let last = -1;
    await expect
      .poll(async () => {
        const [now, top] = [await end(), await scrollTop(panel)];
        const settled = now === last && Math.abs(top - now) <= 1;
        last = now;
        return settled;
      })
      .toBe(true);
    const bottom = await end();
    expect(bottom).toBeGreaterThan(600);
    const reading = Math.round(bottom / 2);
    await panel.locator('#transcript').evaluate((log, top) => log.scrollTo({ top }), reading);
    await expect.poll(() => scrollTop(panel)).toBe(reading);
    // "Jump to latest" is offered below the transcript, never over what is being read.
    const jump = panel.getByRole('button', { name: 'Jump to latest' });
    await jump.waitFor();
    const [log, button] = await Promise.all([panel.locator('#transcript').boundingBox(), jump.boundingBox()]);
    expect(button!.y).toBeGreaterThanOrEqual(log!.y + log!.height);

    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByRole('navigation', { name: 'Settings sections' }).waitFor();
    await panel.getByRole('button', { name: 'Settings' }).click();
    await panel.getByRole('textbox', { name: 'Message' }).waitFor();
    expect(await scrollTop(panel)).toBe(reading);

    await panel.getByRole('button', { name: 'Disconnect all' }).click();
    await panel.getByRole('button', { name: /Demo: disabled/ }).waitFor();
    await panel.locator('#transcript').getByText('All agents were disconnected.').waitFor({ state: 'attached' });
    expect(await scrollTop(panel)).toBe(reading);
  });

  it('Settings lists its sections and takes the keyboard to each, at 360 px, with compact rows', async () => {
    const panel = (await launched.context.pages()).find((page) => page.url().includes('sidepanel'))!;
    await panel.setViewportSize({ width: 360, height: 700 });
    await panel.getByRole('button', { name: 'Settings' }).click();
    const nav = panel.getByRole('navigation', { name: 'Settings sections' });
    const links = nav.getByRole('link');
    expect(await links.allTextContents()).toEqual([
      'General',
      'Allowed sites',
      'High-risk blocklist',
      'Secret values',
      'Agents',
      'What each agent is offered',
      'What you see while an agent works',
      'Room',
      'Connectors',
      'Page tools (WebMCP)',
    ]);
    const navBox = (await nav.boundingBox())!;
    expect(navBox.x + navBox.width).toBeLessThanOrEqual(360);

    // From the list to a section by keyboard: the focus lands on its heading, in view.
    await links.filter({ hasText: 'Connectors' }).focus();
    await panel.keyboard.press('Enter');
    expect(await panel.evaluate(() => document.activeElement?.id)).toBe('connectors-heading');
    const heading = (await panel.locator('#connectors-heading').boundingBox())!;
    expect(heading.y).toBeGreaterThanOrEqual(0);
    expect(heading.y).toBeLessThan(700 / 2);

    // Every section starts at the same inset.
    const insets = await panel
      .locator('.settings-page section[aria-labelledby] > h3')
      .evaluateAll((headings) => [...new Set(headings.map((h) => Math.round(h.getBoundingClientRect().x)))]);
    expect(insets).toHaveLength(1);

    // A checkbox row is a line of text, not a box stretched to the panel's width.
    const offer = (await panel.getByRole('checkbox', { name: 'Offer tabwright to Demo' }).boundingBox())!;
    expect(offer.height).toBeLessThanOrEqual(20);
    expect(offer.width).toBeLessThanOrEqual(20);

    // A connector nobody uses is one short card; opened, its site field shows its own kind of address.
    const card = panel.getByRole('article', { name: /DokuWiki/ });
    expect((await card.boundingBox())!.height).toBeLessThan(110);
    const setUp = panel.getByRole('button', { name: 'Set up DokuWiki' });
    expect(await setUp.getAttribute('aria-expanded')).toBe('false');
    expect(await panel.getByRole('textbox', { name: 'Site for DokuWiki' }).count()).toBe(0);
    await setUp.click();
    expect(await panel.getByRole('textbox', { name: 'Site for DokuWiki' }).getAttribute('placeholder')).toBe(
      'https://wiki.example.com/',
    );
  });
});
