/**
 * `npm run screenshots`: the panel as a person sees it, light and dark — a chat with code, a
 * table, a plan and an open tool card, a permission request, and agent settings — saved as PNGs
 * under test-results/screenshots/. Runs the built test extension (TABWRIGHT_TEST_DIST to use
 * another build) against the showcase peer, at a side panel's size.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { addAgentThroughForm, launchWithExtension, openPanelTab, ROOT, sendMessage } from '../test/e2e/harness';
import { startShowcasePeer } from '../test/peers/showcase-peer';

const OUT = join(ROOT, 'test-results', 'screenshots');
const VIEWPORT = { width: 420, height: 860 };

async function both(panel: Page, name: string): Promise<string[]> {
  const files: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await panel.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    const file = join(OUT, `${name}-${scheme}.png`);
    await panel.screenshot({ path: file });
    files.push(file);
  }
  return files;
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const peer = await startShowcasePeer();
  const launched = await launchWithExtension();
  const files: string[] = [];
  try {
    const panel = await openPanelTab(launched);
    await panel.setViewportSize(VIEWPORT);
    files.push(...(await both(panel, 'first-run')));
    await addAgentThroughForm(panel, { name: 'Claude', url: peer.url, token: '' });
    await panel.getByRole('button', { name: /^Claude: connected/ }).waitFor({ timeout: 30_000 });

    await sendMessage(panel, 'Why does the build fail on an empty config file?');
    await panel.locator('article.message.agent.done').first().waitFor({ timeout: 30_000 });
    await sendMessage(panel, 'showcase');
    await panel.locator('article.message.agent.done').nth(1).waitFor({ timeout: 30_000 });
    await panel.locator('.card.tool summary').first().click();
    await panel.locator('.card.tool').first().scrollIntoViewIfNeeded();
    files.push(...(await both(panel, 'chat-tool-card')));
    await panel.locator('.code-block').first().scrollIntoViewIfNeeded();
    files.push(...(await both(panel, 'chat-code')));

    await sendMessage(panel, 'permission Write to src/config.ts');
    await panel.getByRole('button', { name: 'Allow once' }).waitFor({ timeout: 30_000 });
    files.push(...(await both(panel, 'permission')));
    await panel.getByRole('button', { name: 'Allow once' }).click();

    await panel.getByRole('button', { name: /^Claude: connected/ }).click();
    files.push(...(await both(panel, 'agent-details')));
    await panel.getByRole('button', { name: 'Edit Claude' }).first().click();
    await panel.getByRole('form', { name: 'Edit Claude' }).waitFor();
    files.push(...(await both(panel, 'settings-agent')));
  } finally {
    await launched.close();
    await peer.close();
  }
  for (const file of files) console.log(file);
}

main().catch((error: unknown) => {
  console.error((error as Error).stack ?? String(error));
  process.exit(1);
});
