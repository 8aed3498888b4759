/**
 * `npm run screenshots`: the panel as a person sees it, light and dark — a chat with code, a
 * table, a plan and an open tool card, a permission request, and agent settings — saved as PNGs
 * under test-results/screenshots/, in English and again in Traditional Chinese (`-zh-TW` files).
 * Runs the built test extension (TABWRIGHT_TEST_DIST to use another build) against the showcase
 * peer, at a side panel's size.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import {
  addAgentThroughForm,
  launchWithExtension,
  openPanelTab,
  panelText,
  ROOT,
  sendMessage,
  type PanelText,
} from '../test/e2e/harness';
import { startShowcasePeer } from '../test/peers/showcase-peer';

const OUT = join(ROOT, 'test-results', 'screenshots');
const VIEWPORT = { width: 420, height: 860 };

/** Chrome's UI language, the `_locales` folder its strings come from, and the file-name suffix. */
const LANGUAGES = [
  { locale: 'en', folder: 'en', suffix: '' },
  { locale: 'zh-TW', folder: 'zh_TW', suffix: '-zh-TW' },
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function both(panel: Page, name: string, suffix: string): Promise<string[]> {
  const files: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await panel.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    const file = join(OUT, `${name}-${scheme}${suffix}.png`);
    await panel.screenshot({ path: file });
    files.push(file);
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

    await sendMessage(panel, 'Why does the build fail on an empty config file?', text);
    await panel.locator('article.message.agent.done').first().waitFor({ timeout: 30_000 });
    await sendMessage(panel, 'showcase', text);
    await panel.locator('article.message.agent.done').nth(1).waitFor({ timeout: 30_000 });
    await panel.locator('.card.tool summary').first().click();
    await panel.locator('.card.tool').first().scrollIntoViewIfNeeded();
    files.push(...(await both(panel, 'chat-tool-card', suffix)));
    await panel.locator('.code-block').first().scrollIntoViewIfNeeded();
    files.push(...(await both(panel, 'chat-code', suffix)));

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

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const peer = await startShowcasePeer();
  const files: string[] = [];
  try {
    for (const { locale, folder, suffix } of LANGUAGES) {
      files.push(...(await shoot(locale, panelText(folder), suffix, peer.url)));
    }
  } finally {
    await peer.close();
  }
  for (const file of files) console.log(file);
}

main().catch((error: unknown) => {
  console.error((error as Error).stack ?? String(error));
  process.exit(1);
});
