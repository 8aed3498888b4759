/**
 * End-to-end harness: the built test extension (`dist-test/`) in Debian's Chromium, driven by
 * playwright-core; fixture pages on loopback; the panel driven by its accessible names.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type Worker } from 'playwright-core';
import type english from '../../public/_locales/en/messages.json';

export const ROOT = resolve(import.meta.dirname, '../..');
/** The built test extension; TABWRIGHT_TEST_DIST points at another build (e.g. `vite build --mode test --outDir X`). */
export const TEST_DIST = process.env.TABWRIGHT_TEST_DIST ?? join(ROOT, 'dist-test');
export const CHROMIUM = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const PANEL_PATH = 'src/sidepanel/index.html';

export interface Launched {
  context: BrowserContext;
  extensionId: string;
  worker: Worker;
  close(): Promise<void>;
}

export const CHROMIUM_ARGS = [
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
  '--no-default-browser-check',
  // The panel often runs in a background tab while a test page is in front: keep its timers live.
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

export interface LaunchOptions {
  /** A profile directory kept on close, so a second launch is the same browser restarted. */
  profile?: string;
  /** Chrome's UI language, e.g. `zh-TW` (needs Debian's chromium-l10n for anything but English). */
  locale?: string;
  /** Chromium features to turn on, e.g. `WebMCP` (page-declared tools are behind that flag). */
  features?: string[];
  /** More command-line switches, e.g. `--enable-precise-memory-info` for the memory bench. */
  args?: string[];
}

/** Launches Chromium with the extension loaded, in a throwaway profile or in `options.profile`. */
export async function launchWithExtension(dist = TEST_DIST, options: LaunchOptions = {}): Promise<Launched> {
  const profile = options.profile ?? mkdtempSync(join(tmpdir(), 'tabwright-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      `--disable-extensions-except=${dist}`,
      `--load-extension=${dist}`,
      ...CHROMIUM_ARGS,
      ...(options.locale ? [`--lang=${options.locale}`] : []),
      ...(options.features?.length ? [`--enable-features=${options.features.join(',')}`] : []),
      ...(options.args ?? []),
    ],
    // On Linux `--lang` alone changes the extension's messages but not chrome.i18n.getUILanguage(),
    // which Chromium takes from LANGUAGE: both are set so the browser is consistently in the locale.
    ...(options.locale ? { env: { ...process.env, LANGUAGE: options.locale.replace('-', '_') } } : {}),
    viewport: { width: 1100, height: 800 },
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  const extensionId = new URL(worker.url()).host;
  return {
    context,
    extensionId,
    worker,
    async close() {
      await context.close().catch(() => undefined);
      if (!options.profile) rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * The panel page opened as a normal tab (the real side panel is not in `context.pages()`), once it
 * has drawn its view: the version appears in the same step, so a test never looks for the
 * first-run form, or clicks Settings, before the panel could show them.
 */
export async function openPanelTab(launched: Launched): Promise<Page> {
  const page = await launched.context.newPage();
  await page.goto(`chrome-extension://${launched.extensionId}/${PANEL_PATH}`);
  await page.locator('#version').filter({ hasText: /^v\d/ }).waitFor({ timeout: 30_000 });
  return page;
}

/**
 * Opens the real side panel from the toolbar button of `tab`, the way a user would, and resolves
 * with the panel's CDP target id (side panels are not Playwright pages).
 */
export async function openRealSidePanel(launched: Launched, tab: Page): Promise<string> {
  await waitFor(async () => {
    const behaviour = await launched.worker.evaluate(() => chrome.sidePanel.getPanelBehavior());
    return behaviour.openPanelOnActionClick === true;
  });
  const browser = launched.context.browser();
  if (!browser) throw new Error('no browser-level CDP session for a persistent context');
  return triggerSidePanel(browser, launched.extensionId, tab);
}

/** Presses the extension's toolbar button on `tab` and resolves with the side panel's CDP target id. */
export async function triggerSidePanel(browser: Browser, extensionId: string, tab: Page): Promise<string> {
  const session = await browser.newBrowserCDPSession();
  const listTargets = async () =>
    (
      (await session.send('Target.getTargets' as never, { filter: [{}] } as never)) as {
        targetInfos: Array<{ url: string; targetId: string; type: string }>;
      }
    ).targetInfos;
  // triggerAction needs the *tab* target that wraps the page, not the page target itself.
  const tabTarget = (await listTargets()).find((target) => target.type === 'tab' && target.url === tab.url());
  if (!tabTarget) throw new Error(`no tab target for ${tab.url()}`);
  const panelUrl = `chrome-extension://${extensionId}/${PANEL_PATH}`;
  await session.send('Extensions.triggerAction' as never, { id: extensionId, targetId: tabTarget.targetId } as never);
  let panelTarget = '';
  await waitFor(async () => {
    panelTarget = (await listTargets()).find((target) => target.url.startsWith(panelUrl))?.targetId ?? '';
    return panelTarget !== '';
  });
  await session.detach();
  return panelTarget;
}

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs = 15_000, stepMs = 50): Promise<void> {
  const start = Date.now();
  for (;;) {
    if (await check()) return;
    if (Date.now() - start > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, stepMs));
  }
}

export type PanelText = (key: keyof typeof english, ...substitutions: string[]) => string;

/**
 * The panel's strings from `public/_locales/<locale>/messages.json`, `$1`…`$9` filled in, so a
 * test finds controls by the names a person with that language sees.
 */
export function panelText(locale = 'en'): PanelText {
  const file = join(ROOT, 'public', '_locales', locale, 'messages.json');
  const messages = JSON.parse(readFileSync(file, 'utf8')) as Record<string, { message: string } | undefined>;
  return (key, ...substitutions) => {
    const message = messages[key]?.message;
    if (message === undefined) throw new Error(`${file} has no message "${key}"`);
    return message.replace(/\$([1-9])/g, (_, index: string) => substitutions[Number(index) - 1] ?? '');
  };
}

const ENGLISH = panelText();

/** Adds an agent through the first-run form, by the controls' accessible names. */
/**
 * Adds an agent through the panel's form, as a user does. Unless `follow` is false the agent follows
 * the tab in front ("Follow my current tab"), which tests written around the active tab rely on;
 * tests of agents' own tabs leave it off, as a new agent has it.
 */
export async function addAgentThroughForm(
  panel: Page,
  agent: { name: string; url: string; token: string; follow?: boolean },
  text: PanelText = ENGLISH,
): Promise<void> {
  await panel.getByRole('textbox', { name: text('agentName') }).fill(agent.name);
  await panel.getByRole('textbox', { name: text('brokerUrl') }).fill(agent.url);
  await panel.getByLabel(text('token'), { exact: true }).fill(agent.token);
  const follow = panel.getByRole('checkbox', { name: text('followCurrentTab') });
  if (agent.follow ?? true) await follow.check();
  else await follow.uncheck();
  await panel.getByRole('button', { name: text('addAgent') }).click();
}

export async function sendMessage(panel: Page, message: string, text: PanelText = ENGLISH): Promise<void> {
  const box = panel.getByRole('textbox', { name: text('message') });
  await box.fill(message);
  await box.press('Enter');
}

/** Opens `url` in a new tab and brings it to the front, so it is the active tab the tools act on. */
export async function openActiveTab(launched: Launched, url: string): Promise<Page> {
  const page = await launched.context.newPage();
  await page.goto(url);
  await page.bringToFront();
  return page;
}

/** Allows a site through Settings, the way a user does. */
export async function allowSite(panel: Page, origin: string): Promise<void> {
  await panel.getByRole('textbox', { name: 'Site to allow' }).fill(origin);
  await panel.getByRole('button', { name: 'Allow site' }).click();
  await panel.getByRole('list', { name: 'Allowed sites' }).getByText(origin, { exact: true }).waitFor();
}
