/**
 * The DokuWiki connector against a real DokuWiki on 127.0.0.1 (PHP's built-in server), signed in
 * through DokuWiki's own login form, driven by the demo agent through the real panel.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDokuWiki, type RunningApp } from '../apps';
import {
  ask,
  closeSettings,
  connectorStatus,
  reconnectAgent,
  setUpConnector,
  signIn,
  startRig,
  type ConnectorRig,
} from './connectors-helpers';

describe('DokuWiki connector on a real DokuWiki', () => {
  let app: RunningApp;
  let rig: ConnectorRig;
  let wikiPage: Page;

  beforeAll(async () => {
    app = await startDokuWiki();
    rig = await startRig();
  });
  afterAll(async () => {
    await rig?.close();
    await app?.stop();
  });

  it('reads a page and searches the wiki', async () => {
    const { panel, launched } = rig;
    await setUpConnector(panel, 'DokuWiki', app.url);
    await closeSettings(panel);
    await reconnectAgent(panel);
    wikiPage = await signIn(
      launched,
      `${app.url}/doku.php?id=start&do=login`,
      async (page) => {
        const form = page.locator('form#dw__login');
        await form.locator('input[name="u"]').fill('bob');
        await form.locator('input[name="p"]').fill('secret-bob');
        await form.getByRole('button', { name: 'Log In' }).click();
      },
      async (page) => (await page.locator('.action.logout').count()) > 0,
    );

    const page = await ask(panel, 'page release_process');
    expect(page).toContain('Release process');
    expect(page).toContain('We ship every second Tuesday.');
    expect(page).toContain('freeze the branch');
    expect(await ask(panel, 'page no_such_page')).toContain('The wiki has no page no_such_page');

    const found = await ask(panel, 'search release');
    expect(found).toContain('- release_process (');
    expect(found).toContain('- team:onboarding (');
    expect(found).not.toContain('- start (');
    expect(await ask(panel, 'search zebracrossing')).toContain('Nothing in the wiki matches “zebracrossing”');
    expect(await connectorStatus(panel, 'dokuwiki')).toBe('DokuWiki: healthy');
    await closeSettings(panel);
  });

  it('tells the agent to ask for a sign-in once DokuWiki signed the user out', async () => {
    const { panel } = rig;
    await wikiPage.bringToFront();
    await wikiPage.locator('.action.logout a').click();
    await wikiPage.locator('.action.login').waitFor();

    const reply = await ask(panel, 'page release_process');
    expect(reply).toContain(`Ask the user to sign in to DokuWiki at ${app.url}/doku.php?do=login`);
    await panel.getByRole('alertdialog', { name: 'Sign in to DokuWiki' }).waitFor();
    expect(await connectorStatus(panel, 'dokuwiki')).toMatch(/^DokuWiki: signed out/);
    await closeSettings(panel);
  });
});
