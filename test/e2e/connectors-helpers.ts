/**
 * Steps the connector end-to-end tests share: a panel with the demo agent whose session declares
 * the enabled connectors, a real sign-in through each app's own form, and reading the agent's
 * replies. Everything goes through the UI by accessible names, as a user would.
 */
import { expect } from 'vitest';
import type { Page } from 'playwright-core';
import { startBroker, type RunningBroker } from '../../broker/server';
import {
  addAgentThroughForm,
  allowSite,
  launchWithExtension,
  openPanelTab,
  sendMessage,
  type Launched,
} from './harness';

export interface ConnectorRig {
  launched: Launched;
  broker: RunningBroker;
  panel: Page;
  close(): Promise<void>;
}

export async function startRig(): Promise<ConnectorRig> {
  const broker = await startBroker({ token: 'connector-token', chunkDelayMs: 0 });
  const launched = await launchWithExtension();
  const panel = await openPanelTab(launched);
  await addAgentThroughForm(panel, { name: 'Demo', url: broker.url, token: 'connector-token' });
  await panel.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 30_000 });
  return {
    launched,
    broker,
    panel,
    async close() {
      await launched.close();
      await broker.close();
    },
  };
}

export async function openSettings(panel: Page): Promise<void> {
  if ((await panel.locator('section.connectors').count()) === 0) {
    await panel.getByRole('button', { name: 'Settings' }).click();
  }
  await panel.locator('section.connectors').waitFor();
}

export async function closeSettings(panel: Page): Promise<void> {
  if ((await panel.locator('section.connectors').count()) > 0) {
    await panel.getByRole('button', { name: 'Settings' }).click();
  }
  await panel.getByRole('textbox', { name: 'Message' }).waitFor();
}

/**
 * Allows the app's origin, enables the connector and gives it the app's address (or `site`, for
 * an app under a base path), through Settings.
 */
export async function setUpConnector(panel: Page, name: string, url: string, site = `${url}/`): Promise<void> {
  await openSettings(panel);
  if ((await panel.getByRole('list', { name: 'Allowed sites' }).getByText(url, { exact: true }).count()) === 0) {
    await allowSite(panel, url);
  }
  // A connector nobody uses yet is one line: open its setup.
  const setUp = panel.getByRole('button', { name: `Set up ${name}` });
  if (await setUp.count()) await setUp.click();
  await panel.getByRole('textbox', { name: `Site for ${name}` }).fill(site);
  await panel.getByRole('button', { name: `Add site to ${name}` }).click();
  await panel
    .getByRole('list', { name: `${name} sites` })
    .getByText(site, { exact: true })
    .waitFor();
  await panel.getByRole('checkbox', { name: `Enable ${name}` }).check();
}

/** A new session declares the servers that are enabled now: disconnect, then reconnect from the roster. */
export async function reconnectAgent(panel: Page): Promise<void> {
  await panel.getByRole('button', { name: 'Disconnect all' }).click();
  await panel.getByRole('button', { name: /Demo: disabled/ }).click();
  await panel.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 30_000 });
}

/** Sends a command and resolves with the text of the agent's reply to it. */
export async function ask(panel: Page, text: string, timeout = 60_000): Promise<string> {
  const replies = panel.locator('article.message.agent');
  const before = await replies.count();
  await sendMessage(panel, text);
  await expect.poll(() => replies.count(), { timeout }).toBeGreaterThan(before);
  const reply = replies.nth(before);
  // The turn is over and its text fully rendered: long results land a slice per frame.
  await expect.poll(() => reply.evaluate((el) => el.matches('.done[aria-busy="false"]')), { timeout }).toBe(true);
  return (await reply.locator('.body').innerText()).trim();
}

/** The JSON block the demo agent's `call` command prints after the text. */
export function structuredFrom(reply: string): Record<string, unknown> {
  const start = reply.indexOf('{');
  const end = reply.lastIndexOf('}');
  if (start < 0 || end < start) throw new Error(`no JSON in the reply:\n${reply}`);
  return JSON.parse(reply.slice(start, end + 1)) as Record<string, unknown>;
}

/** Signs in through the app's own login form in a normal tab, as the user would. */
export async function signIn(
  launched: Launched,
  loginUrl: string,
  fill: (page: Page) => Promise<void>,
  signedIn: (page: Page) => Promise<boolean>,
): Promise<Page> {
  const page = await launched.context.newPage();
  await page.goto(loginUrl);
  await fill(page);
  await expect.poll(() => signedIn(page), { timeout: 30_000 }).toBe(true);
  return page;
}

/** The connector's status line in Settings, e.g. "Fossil SCM: healthy". */
export async function connectorStatus(panel: Page, id: string): Promise<string> {
  await openSettings(panel);
  return (await panel.locator(`#connector-${id}-status`).innerText()).trim();
}
