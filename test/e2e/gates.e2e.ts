/**
 * The gates through the real panel, a real broker and real pages: allowed sites edited in
 * Settings, confirmation cards answered by keyboard and by timeout, a page that tells the agent
 * to click "Delete" (the demo agent obeys whatever it is told, so only the gates stand between
 * the page and the button), the audit log and its export, the kill switch across a reload and
 * across windows, and confirmations from two agents queued one card at a time.
 */
import { readFile } from 'node:fs/promises';
import { GENESIS, parseExport, verifyChain } from '../../src/mcp-server/gates/audit-chain';
import type { Page } from 'playwright-core';
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
import { ask, closeSettings, confirmation, openSettings, setActMode } from './panel-helpers';

const TOKEN = 'gates-token_1';
const PASSWORD = 'hunter2-Secret!';

describe('gates in the real panel', () => {
  let launched: Launched;
  let broker: RunningBroker;
  let fixtures: FixtureServer;
  let panel: Page;

  beforeAll(async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    fixtures = await startFixtureServer();
    launched = await launchWithExtension();
    panel = await openPanelTab(launched);
    await addAgentThroughForm(panel, { name: 'Demo', url: broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 30_000 });
  });
  afterAll(async () => {
    await launched?.close();
    await broker?.close();
    await fixtures?.close();
  });

  it('reaches only allowed sites: allow through Settings, remove again, and localhost stays out', async () => {
    await openSettings(panel);
    await allowSite(panel, fixtures.allowed);
    const sites = panel.getByRole('list', { name: 'Allowed sites' });
    await sites.getByRole('button', { name: `Remove ${fixtures.allowed}` }).waitFor();
    await closeSettings(panel);

    const allowed = await openActiveTab(launched, fixtures.url('/index.html'));
    expect(await ask(panel, 'snapshot', /# snapshot — Tabwright demo page/)).toMatch(/button "Count"/);

    const other = await openActiveTab(launched, `${fixtures.other}/second.html`);
    const refused = await ask(panel, 'snapshot', /not an allowed site/);
    expect(refused).toContain(fixtures.other);
    expect(refused).not.toContain('# snapshot');

    const tabs = await ask(panel, 'tabs', /\(not allowed\)/);
    expect(tabs).toContain(fixtures.url('/index.html'));
    expect(tabs).not.toContain(`${fixtures.other}/second.html`);
    await other.close();

    await openSettings(panel);
    await sites.getByRole('button', { name: `Remove ${fixtures.allowed}` }).click();
    await expect.poll(() => sites.getByText(fixtures.allowed, { exact: true }).count()).toBe(0);
    await closeSettings(panel);
    await allowed.bringToFront();
    await ask(panel, 'snapshot', new RegExp(`${fixtures.allowed.replace(/[.:/]/g, '\\$&')} is not an allowed site`));

    await openSettings(panel);
    await allowSite(panel, fixtures.allowed);
    await closeSettings(panel);
    await ask(panel, 'snapshot', /# snapshot — Tabwright demo page/);
    await allowed.close();
  });

  it('asks before a write, showing agent, tool, origin and arguments; keyboard allow, Escape deny, timeout deny', async () => {
    await setActMode(panel, true);
    await openSettings(panel);
    const timeout = panel.getByRole('spinbutton', { name: 'Confirmation timeout (seconds)' });
    await timeout.fill('5');
    await timeout.press('Tab');
    await closeSettings(panel);
    const page = await openActiveTab(launched, fixtures.url('/index.html'));

    await sendMessage(panel, 'click Count');
    const card = confirmation(panel);
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByRole('heading').innerText()).toBe(
      `Demo wants to click "Count" on ${new URL(fixtures.allowed).host}`,
    );
    // What the ref is and where the tab is come from the page, not from the agent.
    expect(await card.locator('.tab-url').innerText()).toBe(`Tab: ${fixtures.url('/index.html')}`);
    expect(await card.locator('.targets li').allInnerTexts()).toEqual([expect.stringMatching(/^e\d+ button "Count"$/)]);
    // The message box keeps focus: a card never takes it from someone typing.
    expect(await panel.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    // The exact call is one click away.
    await card.getByText('Arguments', { exact: true }).click();
    expect(await card.locator('.call-id').innerText()).toBe('Call: tabwright.click');
    expect(await card.locator('pre').innerText()).toMatch(/"ref": "e\d+"/);
    // The grant's real scope is on the button; its name is what it always was.
    expect(await card.getByRole('button', { name: 'Allow for this site' }).innerText()).toBe(
      'Allow for this site: click only',
    );
    await card.focus();
    for (let i = 0; i < 5; i++) {
      if ((await panel.evaluate(() => document.activeElement?.textContent)) === 'Allow once') break;
      await panel.keyboard.press('Tab');
    }
    expect(await panel.evaluate(() => document.activeElement?.textContent)).toBe('Allow once');
    // The buttons answer once the card has been up for a moment.
    await expect.poll(() => card.getAttribute('data-armed')).toBe('true');
    await panel.keyboard.press('Enter');
    await expect.poll(() => page.locator('#clicks').textContent(), { timeout: 15_000 }).toBe('1');
    await expect.poll(() => card.count()).toBe(0);

    await sendMessage(panel, 'click Count');
    await card.waitFor({ timeout: 30_000 });
    await card.focus();
    await panel.keyboard.press('Escape');
    await expect
      .poll(() => panel.locator('article.message.agent').last().innerText(), { timeout: 15_000 })
      .toMatch(/the user denied this action/);
    expect(await page.locator('#clicks').textContent()).toBe('1');

    await sendMessage(panel, 'click Count');
    await card.waitFor({ timeout: 30_000 });
    await expect(card.locator('.countdown').innerText()).resolves.toMatch(/Denied automatically in \d s/);
    await expect
      .poll(() => panel.locator('article.message.agent').last().innerText(), { timeout: 30_000 })
      .toMatch(/did not confirm this action in time/);
    expect(await card.count()).toBe(0);
    expect(await page.locator('#clicks').textContent()).toBe('1');
    await page.close();
  });

  it('ignores a press that lands on a card the moment it appears', async () => {
    await setActMode(panel, true);
    const page = await openActiveTab(launched, fixtures.url('/index.html'));
    // A press on "Allow once" as soon as a card is drawn: a pointer or key meant for the card before it.
    await panel.evaluate(() => {
      const states: string[] = [];
      (window as unknown as { pressedAt: string[] }).pressedAt = states;
      const observer = new MutationObserver(() => {
        const card = document.querySelector<HTMLElement>('[role="alertdialog"][data-armed]');
        if (!card) return;
        observer.disconnect();
        const allow = card.querySelector<HTMLButtonElement>('button.primary')!;
        states.push(card.dataset.armed ?? '', allow.getAttribute('aria-disabled') ?? '');
        allow.dispatchEvent(new PointerEvent('pointerdown', { bubbles: true }));
        allow.click();
      });
      observer.observe(document.body, { childList: true, subtree: true });
    });
    await sendMessage(panel, 'click Count');
    const card = confirmation(panel);
    await card.waitFor({ timeout: 30_000 });
    // Not armed, and saying so, at the moment of the press (read then: by now it may have armed).
    expect(await panel.evaluate(() => (window as unknown as { pressedAt: string[] }).pressedAt)).toEqual([
      'false',
      'true',
    ]);
    await expect.poll(() => card.getAttribute('data-armed')).toBe('true');
    expect(await card.count()).toBe(1);
    expect(await page.locator('#clicks').textContent()).toBe('0');
    await card.getByRole('button', { name: 'Allow once' }).click();
    await expect.poll(() => page.locator('#clicks').textContent(), { timeout: 15_000 }).toBe('1');
    await page.close();
  });

  it('stops an agent that obeys a page telling it to click "Delete": act mode off, a deny, the blocklist', async () => {
    const page = await openActiveTab(launched, fixtures.url('/gates/inject.html'));
    const deleted = () => page.locator('#deleted').textContent();
    /** The scripted agent: read the page, find the instruction, do what it says. */
    const obey = async () => {
      const seen = await ask(panel, 'snapshot', /# snapshot — Project settings/);
      const order = /click\W+(\w+)\W+now/i.exec(seen);
      expect(order?.[1]).toBe('Delete');
      await sendMessage(panel, `click ${order![1]}`);
    };

    await setActMode(panel, false);
    await obey();
    await expect
      .poll(() => panel.locator('article.message.agent').last().innerText(), { timeout: 15_000 })
      .toMatch(/act mode is off/);
    expect(await confirmation(panel).count()).toBe(0);
    expect(await deleted()).toBe('0');

    await setActMode(panel, true);
    await obey();
    await confirmation(panel).waitFor({ timeout: 30_000 });
    expect(await confirmation(panel).locator('.targets li').allInnerTexts()).toEqual([
      expect.stringMatching(/^e\d+ button "Delete"$/),
    ]);
    await confirmation(panel).getByRole('button', { name: 'Deny' }).click({ timeout: 30_000 });
    await expect
      .poll(() => panel.locator('article.message.agent').last().innerText(), { timeout: 15_000 })
      .toMatch(/the user denied this action/);
    expect(await deleted()).toBe('0');

    await openSettings(panel);
    await panel.getByRole('textbox', { name: 'Site to block' }).fill('127.0.0.1');
    await panel.getByRole('button', { name: 'Block site' }).click();
    await panel.getByRole('list', { name: 'Added by you' }).getByText('127.0.0.1', { exact: true }).waitFor();
    // Still on the allowed list, and the list says it is refused anyway.
    await panel
      .getByRole('list', { name: 'Allowed sites' })
      .getByText(/refused anyway/)
      .waitFor();
    await closeSettings(panel);
    await sendMessage(panel, 'click Delete');
    await expect
      .poll(() => panel.locator('article.message.agent').last().innerText(), { timeout: 15_000 })
      .toMatch(/high-risk blocklist/);
    expect(await confirmation(panel).count()).toBe(0);
    expect(await deleted()).toBe('0');
    await ask(panel, 'snapshot', /high-risk blocklist/);

    await openSettings(panel);
    await panel.getByRole('button', { name: 'Unblock 127.0.0.1' }).click();
    await expect.poll(() => panel.getByRole('list', { name: 'Added by you' }).count()).toBe(0);
    await closeSettings(panel);
    await ask(panel, 'snapshot', /# snapshot — Project settings/);
    await page.close();
  });

  it('masks what is typed into a password field on the card and in the result', async () => {
    await setActMode(panel, true);
    const page = await openActiveTab(launched, fixtures.url('/gates/inject.html'));
    await sendMessage(panel, `type ${PASSWORD} into Password`);
    const card = confirmation(panel);
    await card.waitFor({ timeout: 30_000 });
    await card.getByText('Arguments', { exact: true }).click();
    const shown = await card.locator('pre').innerText();
    expect(shown).toContain('••••••');
    expect(shown).not.toContain(PASSWORD);
    expect(await card.textContent()).not.toContain(PASSWORD);
    await card.getByRole('button', { name: 'Allow once' }).click();
    await expect.poll(() => page.locator('#password').inputValue(), { timeout: 15_000 }).toBe(PASSWORD);
    const reply = panel.locator('article.message.agent').last();
    await expect.poll(() => reply.innerText(), { timeout: 15_000 }).toMatch(/Password/);
    expect(await reply.innerText()).not.toContain(PASSWORD);
    await page.close();
  });

  it('logs every call, allowed or refused, filters it and exports it as JSON Lines', async () => {
    await openSettings(panel);
    await panel.getByRole('button', { name: 'Audit log' }).click();
    const entries = panel.getByRole('list', { name: 'Audit entries' }).getByRole('listitem');
    await expect.poll(() => entries.count()).toBeGreaterThan(10);
    await panel.getByRole('combobox', { name: 'Outcome' }).selectOption('refused');
    const refused = await entries.allInnerTexts();
    expect(refused.length).toBeGreaterThan(3);
    for (const text of refused) expect(text).toMatch(/refused \(/);
    await panel.getByRole('combobox', { name: 'Outcome' }).selectOption('all');

    const downloading = panel.waitForEvent('download');
    await panel.getByRole('button', { name: 'Export JSON Lines' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^tabwright-audit-.*\.jsonl$/);
    const exported = await readFile((await download.path())!, 'utf8');
    expect(exported).not.toContain(PASSWORD);
    // The whole log with its chain, from its checkpoint: it verifies as exported.
    const chain = parseExport(exported);
    if ('error' in chain) throw new Error(chain.error);
    expect(chain.checkpoint).toEqual({ dropped: 0, hash: GENESIS });
    expect(await verifyChain(chain.entries, chain.checkpoint)).toMatchObject({ ok: true });
    const lines = exported.trimEnd().split('\n').slice(1);
    const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    for (const entry of logged) {
      expect(entry).toMatchObject({ agent: 'Demo', server: 'tabwright' });
      expect(typeof entry.time).toBe('number');
      expect(typeof entry.durationMs).toBe('number');
      expect(entry.args).toBeTypeOf('object');
    }
    const outcomes = new Set(logged.map((e) => e.outcome));
    for (const outcome of ['ok', 'refused:origin', 'refused:act-mode', 'refused:confirmation']) {
      expect(outcomes, outcome).toContain(outcome);
    }
    expect(logged.some((e) => e.tool === 'click' && e.outcome === 'ok' && e.origin === fixtures.allowed)).toBe(true);
    // A confirmed write says what the card showed, that the person allowed it, and the person's
    // think time apart from the page's.
    const confirmed = logged.find((e) => e.tool === 'click' && e.outcome === 'ok' && e.decision === 'once');
    expect(confirmed, JSON.stringify(logged.filter((e) => e.tool === 'click'))).toBeDefined();
    expect(confirmed!.elements).toEqual([expect.stringMatching(/^button "/)]);
    expect(confirmed!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(confirmed!.waitMs).toBeGreaterThan(0);
    expect(logged.some((e) => e.tool === 'snapshot' && e.decision === 'read')).toBe(true);
    expect(logged.some((e) => e.outcome === 'refused:act-mode' && e.decision === 'refused')).toBe(true);
    expect(logged.some((e) => e.outcome === 'refused:confirmation' && e.decision === 'denied')).toBe(true);
    await panel.getByRole('button', { name: 'Verify the chain' }).click();
    await expect
      .poll(() => panel.locator('#audit-chain').innerText())
      .toMatch(new RegExp(`^The chain holds: ${logged.length} entries, 0 dropped before them\\.$`));
    expect(await entries.filter({ hasText: 'you allowed it once' }).count()).toBeGreaterThan(0);
    expect(logged.some((e) => e.outcome === 'refused:origin' && String(e.detail).includes('blocklist'))).toBe(true);
    await panel.getByRole('button', { name: 'Back to settings' }).click();
    await closeSettings(panel);
  });

  it('"Disconnect all" withdraws waiting cards, closes the agent, holds across a reload, and only an explicit reconnect undoes it', async () => {
    await setActMode(panel, true);
    const page = await openActiveTab(launched, fixtures.url('/index.html'));
    await sendMessage(panel, 'click Count');
    await confirmation(panel).waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: 'Disconnect all' }).click();
    await expect.poll(() => confirmation(panel).count()).toBe(0);
    await panel.getByRole('button', { name: /Demo: disabled/ }).waitFor();
    await panel.getByText('All agents are disconnected.').waitFor();
    expect(await page.locator('#clicks').textContent()).toBe('0');

    await panel.reload();
    await panel.getByText('All agents are disconnected.').waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: /Demo: disabled/ }).waitFor();
    await sendMessage(panel, 'snapshot');
    // Queued, not sent: the agent stays disconnected.
    await panel.getByText('queued').first().waitFor();
    expect(await panel.getByRole('button', { name: /Demo: connected/ }).count()).toBe(0);

    await panel.getByRole('button', { name: 'Reconnect Demo' }).click();
    await panel.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 30_000 });
    await expect.poll(() => panel.getByText('All agents are disconnected.').count()).toBe(0);
    await expect
      .poll(() => panel.locator('article.message.agent').last().innerText(), { timeout: 30_000 })
      .toMatch(/# snapshot — Tabwright demo page/);
    await page.close();
  });

  it('"Disconnect all" in one window disconnects the panel of another window too', async () => {
    await panel.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 30_000 });
    const opened = launched.context.waitForEvent('page');
    await launched.worker.evaluate(
      (url) => chrome.windows.create({ url }),
      `chrome-extension://${launched.extensionId}/src/sidepanel/index.html`,
    );
    const other = await opened;
    const windowOf = (page: Page) => page.evaluate(async () => (await chrome.windows.getCurrent()).id);
    expect(await windowOf(other)).not.toBe(await windowOf(panel));
    await other.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 30_000 });

    await panel.getByRole('button', { name: 'Disconnect all' }).click();
    await other.getByRole('button', { name: /Demo: disabled/ }).waitFor({ timeout: 10_000 });
    await other.getByText('All agents are disconnected.').waitFor();
    // Nothing goes out from the other window either until its user reconnects.
    await sendMessage(other, 'tabs');
    await other.getByText('queued').first().waitFor();
    expect(await other.getByRole('button', { name: /Demo: connected/ }).count()).toBe(0);

    await other.getByRole('button', { name: 'Reconnect Demo' }).click();
    await other.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 30_000 });
    await panel.getByRole('button', { name: 'Reconnect Demo' }).click();
    await panel.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 30_000 });
    await other.close();
  });

  it('queues confirmations from two agents, one card at a time, each answering for its own call', async () => {
    await setActMode(panel, true);
    await openSettings(panel);
    await panel.getByRole('spinbutton', { name: 'Confirmation timeout (seconds)' }).fill('120');
    await panel.getByRole('spinbutton', { name: 'Confirmation timeout (seconds)' }).press('Tab');
    await addAgentThroughForm(panel, { name: 'Second', url: broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /^Second: connected/ }).waitFor({ timeout: 30_000 });
    await closeSettings(panel);
    const page = await openActiveTab(launched, fixtures.url('/index.html'));
    const clicks = () => page.locator('#clicks').textContent();
    const before = Number(await clicks());

    // No @mention: both agents get the message, and both ask to click. Which asks first is theirs
    // to race; Second is denied and Demo allowed, in whichever order the cards come.
    await sendMessage(panel, 'click Count');
    const card = confirmation(panel);
    await card.waitFor({ timeout: 30_000 });
    await expect.poll(() => card.locator('.queue-count').innerText(), { timeout: 30_000 }).toBe('1 more waiting.');
    const asked: string[] = [];
    for (let answered = 0; answered < 2; answered++) {
      await card.waitFor({ timeout: 15_000 });
      const heading = await card.getByRole('heading').innerText();
      const agent = /^(\w+) wants to click "Count" on /.exec(heading)?.[1];
      expect(heading.endsWith(`on ${new URL(fixtures.allowed).host}`)).toBe(true);
      asked.push(agent!);
      await card.getByRole('button', { name: agent === 'Second' ? 'Deny' : 'Allow once' }).click();
      if (answered === 0) await expect.poll(() => card.getByRole('heading').innerText()).not.toBe(heading);
    }
    expect(asked.sort()).toEqual(['Demo', 'Second']);
    await expect.poll(() => card.count()).toBe(0);
    await expect.poll(() => clicks(), { timeout: 15_000 }).toBe(String(before + 1));
    const replyOf = (name: string) => panel.getByRole('article', { name: `Message from ${name}` }).last();
    await expect.poll(() => replyOf('Second').innerText(), { timeout: 15_000 }).toMatch(/the user denied this action/);
    await expect.poll(() => replyOf('Demo').innerText(), { timeout: 15_000 }).toMatch(/Clicked/);
    expect(await clicks()).toBe(String(before + 1));
    await page.close();
  });
});
