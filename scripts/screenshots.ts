/**
 * `npm run screenshots`: the panel as a person sees it, light and dark — the first run, connections
 * refused for each reason the panel tells apart, what an empty chat says (demo agent, a real agent,
 * a refused token), a chat with code, a table, a plan and an open tool card, a permission request,
 * the demo agent's slash commands, "Jump to latest", a blocklist refusal, agent settings and each
 * part of Settings — saved as PNGs under test-results/screenshots/, in English and again in
 * Traditional Chinese (`-zh-TW` files), at a side panel's narrowest width (360 px) and a common one
 * (420 px). Runs the built test extension (TABWRIGHT_TEST_DIST to use another build) against the
 * showcase peer and the project's broker. SCREENSHOTS_ONLY=demo,settings runs only the scenes it
 * names (first-run, refusals, chat, demo, settings). The chat with a tool card, in English, light
 * and 360 px, is also the README's picture: docs/panel.png.
 */
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { startFixtureServer } from '../test/e2e/fixture-server';
import {
  addAgentThroughForm,
  launchWithExtension,
  openActiveTab,
  openPanelTab,
  panelText,
  ROOT,
  sendMessage,
  TEST_DIST,
  type PanelText,
} from '../test/e2e/harness';
import { startShowcasePeer } from '../test/peers/showcase-peer';
import { startBroker, type RunningBroker } from '../broker/server';
import type { PanelServer } from '../broker/panel-tools';

const OUT = join(ROOT, 'test-results', 'screenshots');
/** A side panel at its narrowest, and at a common width. */
const WIDTHS = [360, 420];
const HEIGHT = 860;
const VIEWPORT = { width: WIDTHS[0]!, height: HEIGHT };
const README_IMAGE = join(ROOT, 'docs', 'panel.png');

/** Scenes SCREENSHOTS_ONLY names, or all of them. */
const ONLY = new Set((process.env.SCREENSHOTS_ONLY ?? '').split(',').filter(Boolean));
const wanted = (scene: string) => ONLY.size === 0 || ONLY.has(scene);

/** Chrome's UI language, the `_locales` folder its strings come from, and the file-name suffix. */
const LANGUAGES = [
  { locale: 'en', folder: 'en', suffix: '' },
  { locale: 'zh-TW', folder: 'zh_TW', suffix: '-zh-TW' },
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The panel as it is now, at each width in light and dark: `<name>-<width>-<scheme><suffix>.png`.
 * `settle` runs after each change of width, for a view that must be brought back into place.
 */
async function both(panel: Page, name: string, suffix: string, settle?: () => Promise<void>): Promise<string[]> {
  const files: string[] = [];
  for (const width of WIDTHS) {
    await panel.setViewportSize({ width, height: HEIGHT });
    await settle?.();
    for (const scheme of ['light', 'dark'] as const) {
      await panel.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      const file = join(OUT, `${name}-${width}-${scheme}${suffix}.png`);
      await panel.screenshot({ path: file });
      files.push(file);
    }
  }
  await panel.setViewportSize(VIEWPORT);
  return files;
}

/** A port nothing listens on: bound, read, released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * Refused connections: a wrong token, a wrong path and nothing listening side by side, then an
 * extension the broker does not admit (the build without the test key, as "Load unpacked" loads it).
 */
async function shootRefusals(locale: string, text: PanelText, suffix: string, broker: RunningBroker) {
  const files: string[] = [];
  const launched = await launchWithExtension(undefined, { locale });
  try {
    const panel = await openPanelTab(launched);
    await panel.setViewportSize(VIEWPORT);
    const nobody = `ws://127.0.0.1:${await freePort()}/acp`;
    const agents = [
      { name: 'Claude', url: broker.url, token: 'not-the-token', status: 'statusAuthFailed' },
      { name: 'Codex', url: broker.url.replace(/\/acp$/, '/'), token: 'x', status: 'statusWrongPath' },
      { name: 'Gemini', url: nobody, token: '', status: 'statusUnreachable' },
    ] as const;
    for (const [index, agent] of agents.entries()) {
      if (index > 0 && (await panel.locator('.first-run').count()) === 0) {
        const settings = panel.getByRole('button', { name: text('settings'), exact: true });
        if ((await settings.getAttribute('aria-pressed')) !== 'true') await settings.click();
      }
      await addAgentThroughForm(panel, { ...agent, follow: false }, text);
      const chip = new RegExp(`^${escapeRegExp(agent.name)}: ${escapeRegExp(text(agent.status))}`);
      await panel.getByRole('button', { name: chip }).waitFor({ timeout: 30_000 });
      if (index === 0) files.push(...(await both(panel, 'empty-chat-auth-failed', suffix)));
    }
    await panel.getByRole('button', { name: text('settings'), exact: true }).click();
    files.push(...(await both(panel, 'refused', suffix)));
  } finally {
    await launched.close();
  }

  const unpacked = mkdtempSync(join(tmpdir(), 'tabwright-unpacked-'));
  cpSync(TEST_DIST, unpacked, { recursive: true });
  const manifestFile = join(unpacked, 'manifest.json');
  const { key: _key, ...manifest } = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const other = await launchWithExtension(unpacked, { locale });
  try {
    const panel = await openPanelTab(other);
    await panel.setViewportSize(VIEWPORT);
    await addAgentThroughForm(panel, { name: 'Claude', url: broker.url, token: 'x', follow: false }, text);
    const chip = new RegExp(`^Claude: ${escapeRegExp(text('statusNotAdmitted'))}`);
    await panel.getByRole('button', { name: chip }).waitFor({ timeout: 30_000 });
    files.push(...(await both(panel, 'refused-not-admitted', suffix)));
  } finally {
    await other.close();
    rmSync(unpacked, { recursive: true, force: true });
  }
  return files;
}

async function shoot(locale: string, text: PanelText, suffix: string, peerUrl: string): Promise<string[]> {
  const launched = await launchWithExtension(undefined, { locale });
  const files: string[] = [];
  try {
    const panel = await openPanelTab(launched);
    await panel.setViewportSize(VIEWPORT);
    files.push(...(await both(panel, 'first-run', suffix)));
    await addAgentThroughForm(panel, { name: 'Claude', url: peerUrl, token: '' }, text);
    const chip = panel.getByRole('button', { name: new RegExp(`^Claude: ${escapeRegExp(text('statusConnected'))}`) });
    await chip.waitFor({ timeout: 30_000 });
    files.push(...(await both(panel, 'empty-chat-agent', suffix)));

    await sendMessage(panel, 'Why does the build fail on an empty config file?', text);
    await panel.locator('article.message.agent.done').first().waitFor({ timeout: 30_000 });
    await sendMessage(panel, 'showcase', text);
    await panel.locator('article.message.agent.done').nth(1).waitFor({ timeout: 30_000 });
    await panel.locator('.card.tool summary').first().click();
    const toolCard = () => panel.locator('.card.tool').first().scrollIntoViewIfNeeded();
    await toolCard();
    files.push(...(await both(panel, 'chat-tool-card', suffix, toolCard)));
    const code = () => panel.locator('.code-block').first().scrollIntoViewIfNeeded();
    await code();
    files.push(...(await both(panel, 'chat-code', suffix, code)));

    await sendMessage(panel, 'permission Write to src/config.ts', text);
    // The choices of a permission request are the agent's words, not the panel's.
    await panel.getByRole('button', { name: 'Allow once' }).waitFor({ timeout: 30_000 });
    files.push(...(await both(panel, 'permission', suffix)));
    await panel.getByRole('button', { name: 'Allow once' }).click();

    await chip.click();
    files.push(...(await both(panel, 'agent-details', suffix)));
    await panel
      .getByRole('button', { name: text('editAgent', 'Claude') })
      .first()
      .click();
    await panel.getByRole('form', { name: text('editAgent', 'Claude') }).waitFor();
    files.push(...(await both(panel, 'settings-agent', suffix)));
  } finally {
    await launched.close();
  }
  return files;
}

/** Brings a part of Settings to the top through its entry in the list of sections. */
async function settingsSection(panel: Page, title: string): Promise<() => Promise<void>> {
  const go = async () => {
    await panel.getByRole('link', { name: title, exact: true }).click();
  };
  await go();
  return go;
}

/**
 * The demo agent of the project's broker: what the empty chat says, its slash commands, a reading
 * position with "Jump to latest", a refusal by a blocklist rule with a path, and Settings part by part.
 */
async function shootDemo(locale: string, text: PanelText, suffix: string, broker: RunningBroker): Promise<string[]> {
  const fixtures = await startFixtureServer();
  const launched = await launchWithExtension(undefined, { locale });
  const files: string[] = [];
  try {
    const panel = await openPanelTab(launched);
    await panel.setViewportSize(VIEWPORT);
    await addAgentThroughForm(panel, { name: 'Demo', url: broker.url, token: 'screenshot-token' }, text);
    const chip = new RegExp(`^Demo: ${escapeRegExp(text('statusConnected'))}`);
    await panel.getByRole('button', { name: chip }).waitFor({ timeout: 30_000 });
    const box = panel.getByRole('textbox', { name: text('message') });
    const settings = panel.getByRole('button', { name: text('settings'), exact: true });

    if (wanted('demo')) {
      files.push(...(await both(panel, 'empty-chat-demo', suffix)));
      await box.fill('/');
      await panel.locator('#command-list [role=option]').first().waitFor();
      files.push(...(await both(panel, 'slash-demo', suffix)));
      await box.fill('');

      // A blocklist rule covering one path of an allowed site, and the demo agent reading a page there.
      await settings.click();
      await panel.getByRole('textbox', { name: text('siteToAllow') }).fill(fixtures.allowed);
      await panel.getByRole('button', { name: text('allowSite') }).click();
      await panel
        .getByRole('list', { name: text('allowedSites') })
        .getByText(fixtures.allowed)
        .waitFor();
      await panel.getByRole('textbox', { name: text('siteToBlock') }).fill('127.0.0.1/private');
      await panel.getByRole('button', { name: text('blockSite') }).click();
      await settings.click();
      const page = await openActiveTab(launched, fixtures.url('/private/index.html'));
      await sendMessage(panel, 'snapshot', text);
      await panel.locator('article.message.agent.done').first().waitFor({ timeout: 30_000 });
      await panel.locator('.card.tool summary').first().click();
      files.push(...(await both(panel, 'blocklist-refusal', suffix)));
      await page.close();

      for (let n = 2; n <= 4; n++) {
        await sendMessage(panel, 'help', text);
        await panel
          .locator('article.message.agent.done')
          .nth(n - 1)
          .waitFor({ timeout: 30_000 });
      }
      const reading = () =>
        panel
          .locator('#transcript')
          .evaluate((log) => log.scrollTo({ top: (log.scrollHeight - log.clientHeight) / 2 }));
      await reading();
      await panel.getByRole('button', { name: text('jumpToLatest') }).waitFor();
      files.push(...(await both(panel, 'chat-jump-latest', suffix, reading)));
    }

    if (wanted('settings')) {
      await settings.click();
      await panel.getByRole('navigation', { name: text('settingsSections') }).waitFor();
      files.push(...(await both(panel, 'settings-top', suffix)));
      const scenes = [
        ['settings-offered', text('exposureHeading')],
        ['settings-presence', text('presenceHeading')],
        ['settings-connectors', text('connectorsHeading')],
      ] as const;
      for (const [name, title] of scenes) {
        files.push(...(await both(panel, name, suffix, await settingsSection(panel, title))));
      }
      await panel.getByRole('button', { name: text('showConnectorSetup', 'DokuWiki') }).click();
      const dokuwiki = () => panel.getByRole('article', { name: /DokuWiki/ }).scrollIntoViewIfNeeded();
      await dokuwiki();
      files.push(...(await both(panel, 'settings-connector-open', suffix, dokuwiki)));
    }
  } finally {
    await launched.close();
    await fixtures.close();
  }
  return files;
}

/**
 * Cards beside a call: the fixes a refusal offers ("Allow <site>", "Turn on act mode") and a
 * confirmation in words. Calls come from the broker's side of the real tunnel, as in the e2e rig.
 */
async function shootCards(locale: string, text: PanelText, suffix: string, broker: RunningBroker) {
  const files: string[] = [];
  const fixtures = await startFixtureServer();
  const launched = await launchWithExtension(undefined, { locale });
  try {
    const panel = await openPanelTab(launched);
    await panel.setViewportSize(VIEWPORT);
    await addAgentThroughForm(panel, { name: 'Demo', url: broker.url, token: 'screenshot-token' }, text);
    const chip = new RegExp(`^Demo: ${escapeRegExp(text('statusConnected'))}`);
    await panel.getByRole('button', { name: chip }).waitFor({ timeout: 30_000 });
    let server: PanelServer | undefined;
    for (let tries = 0; !server && tries < 300; tries++) {
      server = broker.sessions.all().find((session) => session.servers.length > 0)?.servers[0];
      if (!server) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    if (!server) throw new Error('the panel declared no browser server');
    const call = (tool: string, args: Record<string, unknown> = {}) => server.call(`${server.name}.${tool}`, args);
    const shop = await launched.context.newPage();
    await shop.goto(fixtures.url('/fixes/shop.html'));
    await shop.bringToFront();
    const host = new URL(fixtures.allowed).host;

    await call('snapshot');
    const allow = panel.getByRole('button', { name: text('fixAllowSite', host) });
    await allow.waitFor();
    files.push(...(await both(panel, 'card-fix-site', suffix)));
    await allow.click();
    const snapshot = await call('snapshot');
    const snapshotText = snapshot.content.map((part) => ('text' in part ? part.text : '')).join('\n');
    const ref = /button "Place order" \[((?:f\d+)?e\d+)\]/.exec(snapshotText)?.[1];
    if (!ref) throw new Error(`no Place order button in:\n${snapshotText}`);
    await call('click', { ref });
    const turnOn = panel.getByRole('button', { name: text('fixTurnOnActMode') });
    await turnOn.waitFor();
    files.push(...(await both(panel, 'card-fix-act-mode', suffix)));
    await turnOn.click();

    const asked = call('click', { ref });
    const card = panel.locator('section.confirmation');
    await card.waitFor({ timeout: 30_000 });
    files.push(...(await both(panel, 'card-confirm-words', suffix)));
    await card.getByText(text('confirmArguments'), { exact: true }).click();
    files.push(...(await both(panel, 'card-confirm-arguments', suffix)));
    await card.getByRole('button', { name: text('deny') }).click();
    await asked;
  } finally {
    await launched.close();
    await fixtures.close();
  }
  return files;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const peer = await startShowcasePeer();
  const broker = await startBroker({ token: 'screenshot-token' });
  const files: string[] = [];
  try {
    for (const { locale, folder, suffix } of LANGUAGES) {
      const text = panelText(folder);
      if (wanted('refusals')) files.push(...(await shootRefusals(locale, text, suffix, broker)));
      if (wanted('chat') || wanted('first-run')) files.push(...(await shoot(locale, text, suffix, peer.url)));
      if (wanted('demo') || wanted('settings')) files.push(...(await shootDemo(locale, text, suffix, broker)));
      if (wanted('cards')) files.push(...(await shootCards(locale, text, suffix, broker)));
    }
  } finally {
    await peer.close();
    await broker.close();
  }
  // The README's picture of the panel at work.
  if (wanted('chat')) copyFileSync(join(OUT, `chat-tool-card-${WIDTHS[0]}-light.png`), README_IMAGE);
  for (const file of [...files, README_IMAGE]) console.log(file);
}

main().catch((error: unknown) => {
  console.error((error as Error).stack ?? String(error));
  process.exit(1);
});
