/**
 * The action e2e set-up: the project's broker in-process, the built test extension in Chromium
 * with an agent added through the panel, act mode on and the fixture site allowed — then tool
 * calls made from the broker's side of the real tunnel (broker → panel → page → panel → broker).
 * Write calls are confirmed in the panel with "Allow for this site", as a user would.
 */
import { extname, join, normalize } from 'node:path';
import type { Page } from 'playwright-core';
import { startBroker, type RunningBroker } from '../../broker/server';
import { textOf, type CallToolResult, type PanelServer } from '../../broker/panel-tools';
import { startFixtureServer, type FixtureServer, type Route } from './fixture-server';
import { bundlePage } from './page-bundle';
import {
  addAgentThroughForm,
  allowSite,
  launchWithExtension,
  openActiveTab,
  openPanelTab,
  ROOT,
  waitFor,
  type Launched,
} from './harness';

export { textOf };

export interface ActionRig {
  launched: Launched;
  broker: RunningBroker;
  fixtures: FixtureServer;
  panel: Page;
  /** Calls a browser tool through the tunnel; write tools are confirmed in the panel. */
  call(tool: string, args?: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult>;
  /** Opens a fixture page as the active tab. */
  open(path: string): Promise<Page>;
  /** Reloads the panel, as a user reopening it would, and calls through its new connection from then on. */
  reloadPanel(): Promise<void>;
  /** Opens a new panel after the test closed this one, and calls through its connection from then on. */
  reopenPanel(): Promise<void>;
  /** Starts a call without confirming anything: the test answers the card itself. */
  start(tool: string, args?: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Bundles a fixture app's entry (and the npm packages it imports) into one script; resolves with the script. */
export async function buildFixtureBundle(entry: string, name: string): Promise<Buffer> {
  const script = (await bundlePage(entry, name)).get(`${name}.js`);
  if (!script) throw new Error(`bundling ${entry} made no ${name}.js`);
  return script;
}

/** Bundles the Preact fixture app; resolves with the script. */
export function buildPreactFixture(): Promise<Buffer> {
  return buildFixtureBundle('test/fixtures/actions/preact-app/main.ts', 'preact-app');
}

/**
 * Serves at `path` a file from disk (a package's stylesheet) or bytes already in hand (a bundle
 * built by the test set-up).
 */
export function serveFile(path: string, file: string | Buffer, type = 'text/javascript; charset=utf-8'): Route {
  return async (request, response) => {
    if (new URL(request.url ?? '/', 'http://fixture').pathname !== path) return false;
    const { readFile } = await import('node:fs/promises');
    const body = typeof file === 'string' ? await readFile(file) : file;
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    response.end(body);
    return true;
  };
}

const SHOELACE_DIST = join(ROOT, 'node_modules/@shoelace-style/shoelace/dist');
const ASSET_TYPES: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml' };

/** Shoelace's theme and icons, straight from the installed package, under /shoelace/. */
export function serveShoelaceAssets(): Route {
  return async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://fixture').pathname);
    if (!path.startsWith('/shoelace/')) return false;
    const file = normalize(join(SHOELACE_DIST, path.slice('/shoelace/'.length)));
    const type = ASSET_TYPES[extname(file)];
    if (!file.startsWith(SHOELACE_DIST) || !type) return (response.writeHead(403).end(), true);
    const { readFile } = await import('node:fs/promises');
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
    return true;
  };
}

/** Clicks "Allow for this site" on any confirmation that shows up while `pending` runs. */
async function confirmWhile<T>(panel: Page, pending: Promise<T>): Promise<T> {
  let done = false;
  const settled = pending.finally(() => (done = true));
  const allow = panel.getByRole('button', { name: 'Allow for this site' });
  // Looked for by its element first: a role query names every button of the panel on each poll,
  // main-thread work of the harness that would slow the call it waits for.
  const card = panel.locator('section.confirmation');
  while (!done) {
    if ((await card.count().catch(() => 0)) && (await allow.count().catch(() => 0)))
      await allow
        .first()
        .click({ timeout: 2_000 })
        .catch(() => undefined);
    await Promise.race([settled.catch(() => undefined), new Promise((resolve) => setTimeout(resolve, 50))]);
  }
  return settled;
}

export async function startActionRig(
  options: {
    dist?: string;
    preact?: boolean;
    shoelace?: boolean;
    routes?: Route[];
    profile?: string;
    /** More Chromium switches. */
    args?: string[];
    /** Whether the agent follows the tab in front ("Follow my current tab"); it does unless false. */
    follow?: boolean;
  } = {},
): Promise<ActionRig> {
  const routes: Route[] = [...(options.routes ?? [])];
  if (options.preact) routes.push(serveFile('/actions/preact-app.js', await buildPreactFixture()));
  if (options.shoelace) {
    const bundle = await buildFixtureBundle('test/fixtures/actions/shoelace-app/main.ts', 'shoelace-app');
    routes.push(serveFile('/actions/shoelace-app.js', bundle), serveShoelaceAssets());
  }
  const broker = await startBroker({ token: 'actions-token', chunkDelayMs: 0 });
  const fixtures = await startFixtureServer(routes);
  const launched = await launchWithExtension(options.dist, {
    ...(options.profile ? { profile: options.profile } : {}),
    ...(options.args ? { args: options.args } : {}),
  });
  let panel = await openPanelTab(launched);
  await addAgentThroughForm(panel, {
    name: 'Actor',
    url: broker.url,
    token: 'actions-token',
    ...(options.follow === false ? { follow: false } : {}),
  });
  await panel.getByRole('button', { name: /Actor: connected/ }).waitFor({ timeout: 30_000 });
  await panel.getByRole('button', { name: 'Settings' }).click();
  await allowSite(panel, fixtures.allowed);
  await panel.getByRole('switch', { name: 'Act mode' }).check();
  await panel.getByRole('button', { name: 'Settings' }).click();

  let server: PanelServer | undefined;
  /** The browser server the panel declared, once it is not `previous`. */
  const declaredServer = (previous?: PanelServer) =>
    waitFor(() => {
      const session = broker.sessions
        .all()
        .filter((s) => s.servers.length > 0)
        .sort((a, b) => b.attachedAt - a.attachedAt)[0];
      const found =
        session?.servers.find((s) => s.name === (session.browserName ?? 'tabwright')) ?? session?.servers[0];
      if (found && found !== previous) server = found;
      return server !== previous;
    }, 30_000);
  await declaredServer();

  return {
    launched,
    broker,
    fixtures,
    get panel() {
      return panel;
    },
    async call(tool, args = {}, signal) {
      return confirmWhile(panel, server!.call(`${server!.name}.${tool}`, args, signal));
    },
    start: (tool, args = {}, signal) => server!.call(`${server!.name}.${tool}`, args, signal),
    open: (path) => openActiveTab(launched, fixtures.url(path)),
    async reloadPanel() {
      const previous = server;
      await panel.reload();
      await panel.getByRole('button', { name: /Actor: connected/ }).waitFor({ timeout: 30_000 });
      await declaredServer(previous);
    },
    async reopenPanel() {
      const previous = server;
      panel = await openPanelTab(launched);
      await panel.getByRole('button', { name: /Actor: connected/ }).waitFor({ timeout: 30_000 });
      await declaredServer(previous);
    },
    async close() {
      await launched.close();
      await broker.close();
      await fixtures.close();
    },
  };
}

/** The ref of the first line that matches `pattern` (e.g. /button "Save"/) in a tool result. */
export function refIn(text: string, pattern: RegExp): string {
  for (const line of text.split('\n')) {
    const match = pattern.exec(line);
    if (!match) continue;
    // The first ref from the match on: a table row on one line holds one per item.
    const ref = /\[((?:f\d+)?e\d+)\]/.exec(line.slice(match.index))?.[1];
    if (ref) return ref;
  }
  throw new Error(`no ref for ${pattern} in:\n${text}`);
}
