/**
 * What one tool call costs in Chrome API calls, counted in the built test extension (the panel
 * counts its own calls into scripting, tabs, windows, frames, permissions and tab groups; see
 * src/platform/chrome-call-counts.ts): a snapshot, a confirmed click, a confirmed type, and a
 * connector read. The counts are printed as a table, and each stays within the bound below, so
 * a change that makes a call dearer is seen.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refIn, startActionRig, textOf, type ActionRig } from './actions-rig';
import {
  ask,
  closeSettings,
  openSettings,
  setUpConnector,
  reconnectAgent,
  startRig,
  type ConnectorRig,
} from './connectors-helpers';
import { startFixtureServer, type FixtureServer } from './fixture-server';

type Counts = Record<string, number>;

const counter = (panel: Page) => ({
  reset: () =>
    panel.evaluate(() =>
      (globalThis as unknown as { tabwrightChromeCalls: { reset(): void } }).tabwrightChromeCalls.reset(),
    ),
  read: () =>
    panel.evaluate(() =>
      (
        globalThis as unknown as { tabwrightChromeCalls: { counts(): Record<string, number> } }
      ).tabwrightChromeCalls.counts(),
    ),
});

const measured: Record<string, Counts> = {};

/**
 * Most calls of each API one call may make. When first counted (before a call had one session and
 * one page guard) a snapshot made 2 permission checks and 2 frame lookups; a confirmed click or
 * type 5 and 6; a connector read 2 and 4. A confirmed action still looks frames up three times:
 * to show the card, after the card (the person may have changed the page while it was up) and
 * after the action (which may have changed them). A connector looks them up for each command, as
 * its steps navigate and follow links. A write also asks the page once whether the person is using
 * it (7 injections, not 6). The page clock's ticks are counted apart (`… (clock tick)`): their
 * number follows how long a command runs, not what it does.
 */
const BOUNDS: Record<string, Counts> = {
  snapshot: {
    'scripting.executeScript': 1,
    'webNavigation.getAllFrames': 1,
    'permissions.contains': 1,
    'tabs.get': 1,
    'tabs.query': 1,
  },
  'confirmed click': {
    'scripting.executeScript': 7,
    'webNavigation.getAllFrames': 3,
    'permissions.contains': 2,
    'tabs.get': 2,
    'tabs.query': 2,
  },
  'confirmed type': {
    'scripting.executeScript': 7,
    'webNavigation.getAllFrames': 3,
    'permissions.contains': 2,
    'tabs.get': 2,
    'tabs.query': 2,
  },
  'connector read': {
    'scripting.executeScript': 6,
    'webNavigation.getAllFrames': 4,
    'permissions.contains': 2,
    'tabs.get': 2,
    'tabs.query': 0,
    'tabs.update': 1,
  },
};

function record(name: string, counts: Counts): void {
  measured[name] = counts;
  for (const [api, most] of Object.entries(BOUNDS[name] ?? {}))
    expect(counts[api] ?? 0, `${name}: ${api}`).toBeLessThanOrEqual(most);
}

afterAll(() => {
  const apis = [...new Set(Object.values(measured).flatMap((counts) => Object.keys(counts)))].sort();
  const rows = Object.entries(measured).map(
    ([name, counts]) => `| ${name} | ${apis.map((api) => counts[api] ?? 0).join(' | ')} |`,
  );
  console.info([`| call | ${apis.join(' | ')} |`, `|---|${apis.map(() => '---').join('|')}|`, ...rows].join('\n'));
});

describe('Chrome API calls per tool call', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    rig = await startActionRig();
  });
  afterAll(async () => rig?.close());

  /** Runs a write call, answering its card with "Allow once", and counts what it cost. */
  async function confirmed(tool: string, args: Record<string, unknown>): Promise<Counts> {
    const count = counter(rig.panel);
    await count.reset();
    const pending = rig.start(tool, args);
    const card = rig.panel.locator('section.confirmation').last();
    await card.waitFor({ timeout: 30_000 });
    await expect.poll(() => card.getAttribute('data-armed')).toBe('true');
    await card.getByRole('button', { name: 'Allow once' }).click();
    const result = await pending;
    expect(result.isError, textOf(result)).toBeFalsy();
    return count.read();
  }

  it('counts a snapshot, a confirmed click and a confirmed type', async () => {
    await rig.open('/index.html');
    await rig.call('snapshot');
    const count = counter(rig.panel);
    await count.reset();
    const snapshot = textOf(await rig.call('snapshot'));
    record('snapshot', await count.read());
    record('confirmed click', await confirmed('click', { ref: refIn(snapshot, /button "Count"/) }));
    record('confirmed type', await confirmed('type', { ref: refIn(snapshot, /textbox "Your name"/), text: 'Ada' }));
  });
});

const ROWS = '<!doctype html><title>Rows</title><ul><li class="row">One</li><li class="row">Two</li></ul>';

function rowsPage(request: IncomingMessage, response: ServerResponse): boolean {
  if (new URL(request.url ?? '/', 'http://fixture').pathname !== '/cost/rows') return false;
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(ROWS);
  return true;
}

const RECIPE = JSON.stringify({
  format: 'tabwright-recipe/1',
  id: 'costs',
  name: 'Cost Rows',
  version: '1.0.0',
  tested: true,
  matches: ['http://127.0.0.1/*'],
  tools: {
    rows: {
      description: 'The rows.',
      steps: [
        { step: 'navigate', path: 'cost/rows', waitFor: 'li.row' },
        { step: 'extract-rows', rows: 'li.row', into: 'rows', fields: { text: {} } },
      ],
    },
  },
});

describe('Chrome API calls per connector call', () => {
  let fixtures: FixtureServer;
  let rig: ConnectorRig;

  beforeAll(async () => {
    fixtures = await startFixtureServer([rowsPage]);
    rig = await startRig();
  });
  afterAll(async () => {
    await rig?.close();
    await fixtures?.close();
  });

  it('counts a connector read in its own tab', async () => {
    const { panel } = rig;
    await openSettings(panel);
    await panel.getByRole('textbox', { name: 'Recipe JSON' }).fill(RECIPE);
    await panel.getByRole('button', { name: 'Import recipe' }).click();
    await panel.getByRole('checkbox', { name: 'Enable Cost Rows' }).waitFor();
    await setUpConnector(panel, 'Cost Rows', fixtures.allowed);
    await closeSettings(panel);
    await reconnectAgent(panel);
    // The first call opens the connector's tab; the second is the steady state measured.
    expect(await ask(panel, 'call costs.rows')).toContain('Two');
    const count = counter(panel);
    await count.reset();
    expect(await ask(panel, 'call costs.rows')).toContain('Two');
    record('connector read', await count.read());
  });
});
