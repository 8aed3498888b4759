/**
 * A recipe connector on an allowed site meets pages of that site the user blocked: a real HTTP
 * redirect, and a single-page app that moves itself there with history.pushState. The call fails
 * and nothing of the blocked page reaches the agent or the chat.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ask,
  closeSettings,
  openSettings,
  reconnectAgent,
  setUpConnector,
  startRig,
  type ConnectorRig,
} from './connectors-helpers';
import { startFixtureServer, type FixtureServer } from './fixture-server';

const list = (items: string[], script = '') =>
  `<!doctype html><title>Guarded</title><ul>${items.map((item) => `<li class="row">${item}</li>`).join('')}</ul>${script}`;

/** After a moment the app "routes" to its payroll view: new URL, new rows, no page load. */
const SPA = `<!doctype html><title>Guarded app</title><ul id="rows"></ul><script>
  setTimeout(() => {
    history.pushState({}, '', '/guard/blocked/pushed');
    document.getElementById('rows').innerHTML = '<li class="row">PUSHED-SECRET 7000</li>';
  }, 300);
</script>`;

const PAGES: Record<string, { status: number; headers: Record<string, string>; body: string }> = {
  '/guard/': { status: 200, headers: {}, body: list(['Public row']) },
  '/guard/go': { status: 302, headers: { location: '/guard/blocked/salary' }, body: '' },
  '/guard/blocked/salary': { status: 200, headers: {}, body: list(['SALARY-SECRET 9000']) },
  '/guard/app': { status: 200, headers: {}, body: SPA },
};

function guardedPages(request: IncomingMessage, response: ServerResponse): boolean {
  const page = PAGES[new URL(request.url ?? '/', 'http://fixture').pathname];
  if (!page) return false;
  response.writeHead(page.status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    ...page.headers,
  });
  response.end(page.body);
  return true;
}

const readRows = (path: string) => [
  { step: 'navigate', path, waitFor: 'li.row' },
  { step: 'extract-rows', rows: 'li.row', into: 'rows', fields: { text: {} } },
];

const RECIPE = JSON.stringify({
  format: 'tabwright-recipe/1',
  id: 'guarded',
  name: 'Guarded App',
  version: '1.0.0',
  tested: true,
  matches: ['http://127.0.0.1/*'],
  tools: {
    home: { description: 'The public rows.', steps: readRows('guard/') },
    export: { description: 'The export, which redirects.', steps: readRows('guard/go') },
    app: { description: 'The app, which changes its own route.', steps: readRows('guard/app') },
  },
});

describe('a connector on an allowed site, sent to a page the user blocked', () => {
  let fixtures: FixtureServer;
  let rig: ConnectorRig;

  beforeAll(async () => {
    fixtures = await startFixtureServer([guardedPages]);
    rig = await startRig();
  });
  afterAll(async () => {
    await rig?.close();
    await fixtures?.close();
  });

  it('fails the call and returns nothing of the blocked page, after a redirect or a pushState', async () => {
    const { panel } = rig;
    await openSettings(panel);
    await panel.getByRole('textbox', { name: 'Recipe JSON' }).fill(RECIPE);
    await panel.getByRole('button', { name: 'Import recipe' }).click();
    await panel.getByRole('checkbox', { name: 'Enable Guarded App' }).waitFor();
    await setUpConnector(panel, 'Guarded App', fixtures.allowed);
    await panel.getByRole('textbox', { name: 'Site to block' }).fill('127.0.0.1/guard/blocked');
    await panel.getByRole('button', { name: 'Block site' }).click();
    await panel
      .getByRole('list', { name: 'Added by you' })
      .getByText('127.0.0.1/guard/blocked', { exact: true })
      .waitFor();
    await closeSettings(panel);
    await reconnectAgent(panel);

    expect(await ask(panel, 'call guarded.home')).toContain('Public row');

    const redirected = await ask(panel, 'call guarded.export');
    expect(redirected).toContain('guarded.export failed');
    expect(redirected).toContain(
      `Guarded App landed on ${fixtures.allowed}/guard/blocked/salary, which Tabwright may not read.`,
    );
    expect(redirected).toContain('high-risk blocklist (127.0.0.1/guard/blocked)');
    expect(redirected).not.toContain('SALARY-SECRET');

    const routed = await ask(panel, 'call guarded.app');
    expect(routed).toContain('guarded.app failed');
    expect(routed).toContain(
      `Guarded App moved to ${fixtures.allowed}/guard/blocked/pushed, which Tabwright may not read.`,
    );
    expect(routed).not.toContain('PUSHED-SECRET');

    // Nothing of either page anywhere in the chat, tool cards included.
    const chat = await panel.locator('body').innerText();
    expect(chat).not.toContain('SALARY-SECRET');
    expect(chat).not.toContain('PUSHED-SECRET');
    // The connector still works on the pages that are allowed.
    expect(await ask(panel, 'call guarded.home')).toContain('Public row');
  });
});
