/**
 * The Fossil connector against a real Fossil server on 127.0.0.1, signed in through Fossil's own
 * login form, driven by the demo agent through the real panel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOSSIL_SEED, startFossil, type FossilApp } from '../apps';
import {
  ask,
  closeSettings,
  connectorStatus,
  openSettings,
  reconnectAgent,
  setUpConnector,
  signIn,
  startRig,
  type ConnectorRig,
} from './connectors-helpers';

describe('Fossil connector on a real Fossil', () => {
  let app: FossilApp;
  let rig: ConnectorRig;

  beforeAll(async () => {
    app = await startFossil();
    rig = await startRig();
  });
  afterAll(async () => {
    await rig?.close();
    await app?.stop();
  });

  const aliceTickets = FOSSIL_SEED.tickets.filter((t) => t.assignedTo === 'alice');

  it('lists my tickets, reads one and a wiki page, in its own background tab', async () => {
    const { panel, launched } = rig;
    await setUpConnector(panel, 'Fossil SCM', app.url);
    await closeSettings(panel);
    await reconnectAgent(panel);
    const fossilPage = await signIn(
      launched,
      `${app.url}/login`,
      async (page) => {
        await page.locator('#u').fill('alice');
        await page.locator('#p').fill('secret-alice');
        await page.getByRole('button', { name: 'Login' }).click();
      },
      async (page) => (await page.locator('a[href$="/logout"]').count()) > 0,
    );
    // The user looks at some other page; the connector must not move it.
    const front = await launched.context.newPage();
    await front.goto(`${app.url}/login`);
    await front.bringToFront();
    const open = await ask(panel, 'tickets');
    for (const ticket of aliceTickets.filter((t) => t.status !== 'Closed')) expect(open).toContain(ticket.title);
    expect(open).not.toContain('Document the backup procedure');
    expect(open).not.toContain('Speed up the ticket report');
    expect(front.url()).toBe(`${app.url}/login`);
    // Enabling the connector ran its health check, which opened its tab; every call reuses it.
    const pages = launched.context.pages();
    const connectorTabs = pages.filter((p) => p !== front && p !== fossilPage && p.url().startsWith(app.url));
    expect(connectorTabs).toHaveLength(1);
    expect(connectorTabs[0]!.url()).toContain('/rptview');
    const active = await launched.worker.evaluate(async () =>
      (await chrome.tabs.query({ active: true })).map((tab) => tab.url),
    );
    expect(active).toContain(`${app.url}/login`);
    expect(active.some((url) => url?.includes('/rptview'))).toBe(false);

    const closed = await ask(panel, 'tickets closed');
    expect(closed).toContain('Document the backup procedure');
    expect(closed).not.toContain('Login page rejects long passwords');

    const all = await ask(panel, 'tickets all');
    for (const ticket of aliceTickets) expect(all).toContain(ticket.title);
    expect(launched.context.pages()).toEqual(pages);

    const hash = app.tickets['Login page rejects long passwords']!;
    const detail = await ask(panel, `ticket ${hash.slice(0, 10)}`);
    expect(detail).toContain(`Ticket ${hash}: Login page rejects long passwords`);
    expect(detail).toContain('Status: Open');
    expect(detail).toContain('Assigned to: alice');
    expect(detail).toContain('Passwords longer than 64 characters');

    const missing = await ask(panel, 'ticket deadbeef99');
    expect(missing).toContain('There is no ticket deadbeef99');

    const wiki = await ask(panel, 'wiki ReleaseProcess');
    expect(wiki).toContain('Tuesday');
    expect(await ask(panel, 'wiki NoSuchPage')).toContain('There is no wiki page named NoSuchPage');

    expect(await connectorStatus(panel, 'fossil')).toBe('Fossil SCM: healthy');
    await panel.getByRole('button', { name: 'Check Fossil SCM now' }).click();
    await expect.poll(() => connectorStatus(panel, 'fossil'), { timeout: 30_000 }).toBe('Fossil SCM: healthy');
    await closeSettings(panel);
    await fossilPage.close();
    await front.close();
  });

  it('tells the agent to ask for a sign-in, and shows the user a sign-in prompt, once signed out', async () => {
    const { panel, launched } = rig;
    // Sign out through Fossil's own logout form.
    const page = await launched.context.newPage();
    await page.goto(`${app.url}/logout`);
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.locator('#u').waitFor();
    await page.close();

    const reply = await ask(panel, 'tickets');
    expect(reply).toContain(`Ask the user to sign in to Fossil SCM at ${app.url}/login`);
    const prompt = panel.getByRole('alertdialog', { name: 'Sign in to Fossil SCM' });
    await prompt.waitFor();
    expect(await prompt.getByRole('link', { name: 'Sign in to Fossil SCM' }).getAttribute('href')).toBe(
      `${app.url}/login`,
    );
    expect(await connectorStatus(panel, 'fossil')).toMatch(/^Fossil SCM: signed out/);
    await panel.getByRole('button', { name: 'Check Fossil SCM now' }).click();
    await expect.poll(() => connectorStatus(panel, 'fossil'), { timeout: 30_000 }).toMatch(/^Fossil SCM: signed out/);
    await openSettings(panel);
  });

  it('a connector turned off mid-session stops answering at once', async () => {
    const { panel } = rig;
    await openSettings(panel);
    await panel.getByRole('checkbox', { name: 'Enable Fossil SCM' }).uncheck();
    await closeSettings(panel);
    expect(await ask(panel, 'tickets')).toContain('The Fossil SCM connector is turned off in Tabwright settings');
    await openSettings(panel);
    await panel.getByRole('checkbox', { name: 'Enable Fossil SCM' }).check();
    await closeSettings(panel);
  });

  it('refuses while its site is not allowed', async () => {
    const { panel } = rig;
    await openSettings(panel);
    await panel.getByRole('button', { name: `Remove ${app.url}`, exact: true }).click();
    await closeSettings(panel);
    const reply = await ask(panel, 'tickets');
    expect(reply).toContain('is not an allowed site');
  });
});
