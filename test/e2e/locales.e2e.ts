/**
 * The panel in Chrome's UI language: in Traditional Chinese (Taiwan) its strings, its document
 * language and that no view is wider than a side panel; in a language without a translation,
 * English marked as English. A confirmation card comes from a write call made through the
 * project's broker.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { textOf, type PanelServer } from '../../broker/panel-tools';
import { startShowcasePeer, type ShowcasePeer } from '../peers/showcase-peer';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import {
  addAgentThroughForm,
  launchWithExtension,
  openActiveTab,
  openPanelTab,
  panelText,
  sendMessage,
  waitFor,
  type Launched,
} from './harness';

const zh = panelText('zh_TW');
/** The side panel's width range in Chrome: at its narrowest and at a common width. */
const WIDTHS = [360, 400];

interface Overflow {
  element: string;
  text: string;
  scrollWidth: number;
  clientWidth: number;
  right: number;
}

/**
 * Boxes wider than their content on purpose: code keeps its lines and a table its columns (both
 * scroll sideways), and screen-reader text is clipped to a pixel.
 */
const MEANT_TO_OVERFLOW = 'pre, .table-wrap, .sr-only';

/**
 * Visible elements holding text that is wider than their box or reaches past the panel's right
 * edge, scroll containers (the main view, the transcript…) that would scroll sideways, and whether
 * the document does.
 */
async function overflows(panel: Page): Promise<{ documentScrolls: boolean; elements: Overflow[] }> {
  return panel.evaluate((meant) => {
    const viewport = document.documentElement.clientWidth;
    const elements: Overflow[] = [];
    for (const element of document.body.querySelectorAll<HTMLElement>('*')) {
      if (!element.checkVisibility() || element.closest(meant)) continue;
      const scroller = /auto|scroll/.test(getComputedStyle(element).overflowX);
      const ownText = [...element.childNodes].some(
        (node) => node.nodeType === Node.TEXT_NODE && node.textContent!.trim(),
      );
      if (!scroller && !ownText) continue;
      const right = Math.round(element.getBoundingClientRect().right);
      if (element.scrollWidth > element.clientWidth + 1 || right > viewport + 1) {
        const classes =
          typeof element.className === 'string' && element.className ? `.${element.className.replace(/ +/g, '.')}` : '';
        elements.push({
          element: `${element.tagName.toLowerCase()}${classes}`,
          text: (element.textContent ?? '').trim().slice(0, 60),
          scrollWidth: element.scrollWidth,
          clientWidth: element.clientWidth,
          right,
        });
      }
    }
    return { documentScrolls: document.documentElement.scrollWidth > viewport, elements };
  }, MEANT_TO_OVERFLOW);
}

async function expectFits(panel: Page, view: string): Promise<void> {
  for (const width of WIDTHS) {
    await panel.setViewportSize({ width, height: 800 });
    const found = await overflows(panel);
    expect({ view, width, ...found }).toEqual({ view, width, documentScrolls: false, elements: [] });
  }
}

describe('the panel in Traditional Chinese (Taiwan)', () => {
  let launched: Launched;
  let peer: ShowcasePeer;
  let panel: Page;

  beforeAll(async () => {
    peer = await startShowcasePeer();
    launched = await launchWithExtension(undefined, { locale: 'zh-TW' });
    panel = await openPanelTab(launched);
  });
  afterAll(async () => {
    await launched?.close();
    await peer?.close();
  });

  it('follows Chrome’s UI language, in strings and in the document language', async () => {
    const language = await panel.evaluate(() => ({
      ui: chrome.i18n.getUILanguage(),
      lang: document.documentElement.lang,
    }));
    expect(language).toEqual({ ui: 'zh-TW', lang: 'zh-TW' });
    await expect.poll(() => panel.getByRole('button', { name: '設定', exact: true }).count()).toBe(1);
    // Nothing is connected on a first run: no "Disconnect all" yet (it is checked once an agent is).
    expect(await panel.getByRole('button', { name: '全部中斷連線', exact: true }).count()).toBe(0);
  });

  it('labels the first-run form in Chinese and fits it in a side panel', async () => {
    expect(await panel.getByRole('heading', { name: '連線代理程式', exact: true }).count()).toBe(1);
    expect(await panel.getByRole('textbox', { name: '代理程式名稱', exact: true }).count()).toBe(1);
    expect(await panel.getByRole('textbox', { name: '中介伺服器 URL', exact: true }).count()).toBe(1);
    expect(await panel.getByLabel('權杖', { exact: true }).count()).toBe(1);
    // The unencrypted-token box is asked only for a ws:// URL to another machine.
    const insecure = panel.getByRole('checkbox', { name: '仍要透過未加密的 ws:// 傳送權杖' });
    expect(await insecure.count()).toBe(0);
    await panel.getByRole('textbox', { name: '中介伺服器 URL', exact: true }).fill('ws://broker.example/acp');
    expect(await insecure.count()).toBe(1);
    expect(await panel.getByRole('textbox', { name: '代理程式名稱', exact: true }).inputValue()).toBe('我的代理程式');
    expect(await panel.getByRole('button', { name: '新增代理程式', exact: true }).count()).toBe(1);
    await panel.getByText('更多選項', { exact: true }).click();
    await expectFits(panel, 'first run');
  });

  it('fits a chat with code, a tool card and a permission request', async () => {
    await addAgentThroughForm(panel, { name: 'Claude', url: peer.url, token: '' }, zh);
    const chip = panel.getByRole('button', { name: /^Claude: 已連線/ });
    await chip.waitFor({ timeout: 60_000 });
    expect(await panel.getByRole('button', { name: '全部中斷連線', exact: true }).count()).toBe(1);
    expect(await panel.getByRole('navigation', { name: '代理程式', exact: true }).count()).toBe(1);
    expect(await panel.getByRole('textbox', { name: '訊息', exact: true }).count()).toBe(1);
    await sendMessage(panel, 'Why does the build fail on an empty config file?', zh);
    await panel.locator('article.message.agent.done[aria-busy="false"]').first().waitFor({ timeout: 30_000 });
    await sendMessage(panel, 'showcase', zh);
    await panel.locator('article.message.agent.done[aria-busy="false"]').nth(1).waitFor({ timeout: 30_000 });
    await panel.locator('.card.tool summary').first().click();
    expect(await panel.locator('.card.tool .card-kind').first().textContent()).toBe('讀取');
    expect(await panel.getByRole('button', { name: zh('copyCodeIn', 'ts') }).count()).toBeGreaterThan(0);
    await sendMessage(panel, 'permission Write to src/config.ts', zh);
    await panel.getByRole('button', { name: 'Allow once' }).waitFor({ timeout: 30_000 });
    await expectFits(panel, 'chat');
    await panel.getByRole('button', { name: 'Allow once' }).click();

    await chip.click();
    await panel.getByRole('button', { name: '編輯 Claude', exact: true }).first().click();
    const form = panel.getByRole('form', { name: '編輯 Claude', exact: true });
    await form.waitFor();
    await form.getByText('更多選項', { exact: true }).click();
    await expectFits(panel, 'agent settings');
  });

  it('fits the whole of Settings', async () => {
    // Editing an agent already opened Settings; the button toggles it.
    const actMode = panel.getByRole('switch', { name: '操作模式', exact: true });
    if (!(await actMode.isVisible())) await panel.getByRole('button', { name: '設定', exact: true }).click();
    await actMode.waitFor();
    expect(await panel.getByRole('textbox', { name: '要允許的網站', exact: true }).count()).toBe(1);
    expect(await panel.getByRole('button', { name: '允許網站', exact: true }).count()).toBe(1);
    // Each connector's health, collapsed or not, is said in Chinese too.
    const statuses = await panel.locator('.connector-status').allTextContents();
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(status).toMatch(/：(尚未檢查|檢查中|尚未設定網站)/);
    await expectFits(panel, 'settings');
  });
});

describe('a confirmation card in Traditional Chinese (Taiwan)', () => {
  let launched: Launched;
  let broker: RunningBroker;
  let fixtures: FixtureServer;

  beforeAll(async () => {
    broker = await startBroker({ token: 'zh-token', chunkDelayMs: 0 });
    fixtures = await startFixtureServer();
    launched = await launchWithExtension(undefined, { locale: 'zh-TW' });
  });
  afterAll(async () => {
    await launched?.close();
    await broker?.close();
    await fixtures?.close();
  });

  it('asks in Chinese, fits a side panel, denies when told to and logs it in Chinese', async () => {
    const panel = await openPanelTab(launched);
    await addAgentThroughForm(panel, { name: 'Actor', url: broker.url, token: 'zh-token' }, zh);
    await panel.getByRole('button', { name: /^Actor: 已連線/ }).waitFor({ timeout: 60_000 });
    await panel.getByRole('button', { name: '設定', exact: true }).click();
    await panel.getByRole('textbox', { name: '要允許的網站', exact: true }).fill(fixtures.allowed);
    await panel.getByRole('button', { name: '允許網站', exact: true }).click();
    await panel.getByRole('list', { name: '允許的網站', exact: true }).getByText(fixtures.allowed).waitFor();
    await panel.getByRole('switch', { name: '操作模式', exact: true }).check();
    await panel.getByRole('button', { name: '設定', exact: true }).click();

    let server: PanelServer | undefined;
    await waitFor(() => {
      server = broker.sessions.all().find((session) => session.servers.length > 0)?.servers[0];
      return server !== undefined;
    }, 30_000);
    const page = await openActiveTab(launched, fixtures.url('/index.html'));
    const snapshot = textOf(await server!.call(`${server!.name}.snapshot`, {}));
    const ref = /button "Count" \[([^\]]+)\]/.exec(snapshot)?.[1];
    expect(ref).toBeTruthy();
    const click = server!.call(`${server!.name}.click`, { ref });

    const deny = panel.getByRole('button', { name: '拒絕', exact: true });
    await deny.waitFor({ timeout: 30_000 });
    expect(await panel.getByRole('button', { name: '允許一次', exact: true }).count()).toBe(1);
    expect(await panel.getByRole('button', { name: '對這個網站允許', exact: true }).count()).toBe(1);
    const host = new URL(fixtures.allowed).host;
    expect(await panel.getByText(`Actor 想在 ${host} 上點按 「Count」`, { exact: true }).count()).toBe(1);
    expect(await panel.getByText('對這個網站允許：僅限 click', { exact: true }).count()).toBe(1);
    await expectFits(panel, 'confirmation');
    await deny.click();
    const result = await click;
    expect(result.isError).toBe(true);
    expect(await page.locator('#clicks').textContent()).toBe('0');

    await panel.getByRole('button', { name: '設定', exact: true }).click();
    await panel.getByRole('button', { name: '稽核記錄', exact: true }).click();
    const entries = panel.getByRole('list', { name: '稽核項目', exact: true }).getByRole('listitem');
    await expect.poll(() => entries.allInnerTexts()).toContainEqual(expect.stringContaining('遭拒（確認）'));
    await expectFits(panel, 'audit log');
  });
});

describe('the panel with Chrome in a language it has no translation for', () => {
  let launched: Launched;

  beforeAll(async () => {
    launched = await launchWithExtension(undefined, { locale: 'fr' });
  });
  afterAll(async () => {
    await launched?.close();
  });

  it('shows English and marks the document as English, not as the UI language', async () => {
    const panel = await openPanelTab(launched);
    const language = await panel.evaluate(() => ({
      ui: chrome.i18n.getUILanguage(),
      lang: document.documentElement.lang,
    }));
    expect(language).toEqual({ ui: 'fr', lang: 'en' });
    expect(await panel.getByRole('button', { name: 'Settings', exact: true }).count()).toBe(1);
  });
});
