/**
 * The background e2e set-up: Chromium as a person runs it, with the tabs that are not in front
 * treated as Chrome treats them — hidden, without focus, their timers held back — and the real side
 * panel serving two agents, each through a broker of its own.
 *
 * The usual harness cannot show any of that: it launches through Playwright, which switches off
 * timer throttling and renderer backgrounding and emulates focus (and so visibility) for every page
 * it drives. Here Chromium is started by the rig itself without those switches and Playwright only
 * attaches to it (`connectOverCDP` with `noDefaults`, so no focus emulation). Headless Chromium then
 * already hides every tab but the front one; set TABWRIGHT_HEADED=1 to run it headed, which the rig
 * does under its own Xvfb when no display is set. The side panel is not a page Playwright knows:
 * the rig reaches it by its DevTools target, and the test answers its confirmation cards there.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from 'vitest';
import WebSocket from 'ws';
import { startBroker, type RunningBroker } from '../../broker/server';
import { textOf, type CallToolResult, type PanelServer } from '../../broker/panel-tools';
import { startFixtureServer, type FixtureServer, type Route } from './fixture-server';
import {
  addAgentThroughForm,
  allowSite,
  CHROMIUM,
  openPanelTab,
  TEST_DIST,
  triggerSidePanel,
  waitFor,
  type Launched,
} from './harness';

export { textOf };

/** The switches the usual harness adds to keep background tabs running; none of them is used here. */
export const BACKGROUND_KEEPERS = [
  '--disable-background-timer-throttling',
  '--disable-renderer-backgrounding',
  '--disable-backgrounding-occluded-windows',
];

const HEADED = process.env.TABWRIGHT_HEADED === '1';

/** An X server of the rig's own, on the first free display number from :90. */
async function startXvfb(): Promise<{ display: string; stop(): void }> {
  for (let number = 90; number < 140; number++) {
    if (existsSync(`/tmp/.X11-unix/X${number}`) || existsSync(`/tmp/.X${number}-lock`)) continue;
    const server = spawn('Xvfb', [`:${number}`, '-screen', '0', '1400x1000x24', '-nolisten', 'tcp'], {
      stdio: 'ignore',
    });
    const started = await new Promise<boolean>((resolve) => {
      server.once('exit', () => resolve(false));
      void waitFor(() => existsSync(`/tmp/.X11-unix/X${number}`), 5_000).then(
        () => resolve(true),
        () => resolve(false),
      );
    });
    if (started) return { display: `:${number}`, stop: () => server.kill() };
  }
  throw new Error('no free X display for Xvfb (install xvfb)');
}

export interface BackgroundBrowser extends Launched {
  browser: Browser;
  /** The DevTools endpoint's host and port, for targets Playwright does not wrap. */
  devtools: string;
}

/** Chromium with the built extension, started without the background keepers, Playwright attached. */
export async function launchInBackgroundMode(dist = TEST_DIST, headed = HEADED): Promise<BackgroundBrowser> {
  const profile = mkdtempSync(join(tmpdir(), 'tabwright-background-'));
  const xvfb = headed && !process.env.DISPLAY ? await startXvfb() : undefined;
  const child: ChildProcess = spawn(
    CHROMIUM,
    [
      `--user-data-dir=${profile}`,
      '--remote-debugging-port=0',
      '--no-sandbox',
      `--disable-extensions-except=${dist}`,
      `--load-extension=${dist}`,
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      '--no-default-browser-check',
      '--window-size=1100,800',
      ...(headed ? [] : ['--headless']),
      'about:blank',
    ],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, ...(xvfb ? { DISPLAY: xvfb.display } : {}) },
      // A process group of its own, so closing ends its helpers (zygote, crash handler) too.
      detached: true,
    },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /DevTools listening on (ws:\S+)/.exec(seen);
      if (found) resolve(found[1]!);
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}): ${seen.slice(-2_000)}`)));
  });
  const browser = await chromium.connectOverCDP(endpoint, { noDefaults: true });
  const context = browser.contexts()[0]!;
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 30_000 }));
  return {
    browser,
    context,
    worker,
    extensionId: new URL(worker.url()).host,
    devtools: new URL(endpoint).host,
    async close() {
      const exited = new Promise((resolve) =>
        child.exitCode !== null ? resolve(undefined) : child.once('exit', resolve),
      );
      await browser.close().catch(() => undefined);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group has ended already
      }
      await exited;
      xvfb?.stop();
      rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    },
  };
}

/** The real side panel, reached by its DevTools target: the test evaluates in it and answers cards. */
export class SidePanelTarget {
  #next = 1;
  readonly #pending = new Map<number, (reply: { result?: unknown; error?: unknown }) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { id?: number; result?: unknown; error?: unknown };
      if (message.id !== undefined) this.#pending.get(message.id)?.(message);
    });
  }

  /** Opens the side panel from the toolbar button on `tab`, as the person would. */
  static async open(launched: BackgroundBrowser, tab: Page): Promise<SidePanelTarget> {
    const id = await triggerSidePanel(launched.browser, launched.extensionId, tab);
    const socket = new WebSocket(`ws://${launched.devtools}/devtools/page/${id}`);
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    return new SidePanelTarget(socket);
  }

  /** Evaluates `expression` in the panel and answers with its value. */
  async evaluate<T>(expression: string): Promise<T> {
    const id = this.#next++;
    const reply = new Promise<{ result?: unknown; error?: unknown }>((resolve) => this.#pending.set(id, resolve));
    this.socket.send(
      JSON.stringify({
        id,
        method: 'Runtime.evaluate',
        params: { expression, awaitPromise: true, returnByValue: true },
      }),
    );
    const answer = await reply;
    this.#pending.delete(id);
    const result = answer.result as { result?: { value?: unknown }; exceptionDetails?: { text: string } } | undefined;
    if (answer.error || result?.exceptionDetails)
      throw new Error(`side panel: ${JSON.stringify(answer.error ?? result?.exceptionDetails)}`);
    return result?.result?.value as T;
  }

  /** Presses "Allow once" on `agent`'s card, if one is there and armed; whether it did. */
  allowOnce(agent: string): Promise<boolean> {
    return this.evaluate<boolean>(`(() => {
      const card = [...document.querySelectorAll('section.confirmation[data-armed="true"]')]
        .find((section) => section.textContent.includes(${JSON.stringify(`${agent} wants`)}));
      const button = card && [...card.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Allow once');
      if (!button) return false;
      button.click();
      return true;
    })()`);
  }

  /** The cards shown now, by their text. */
  cards(): Promise<string[]> {
    return this.evaluate<string[]>(
      `[...document.querySelectorAll('section.confirmation')].map((section) => section.textContent)`,
    );
  }

  close(): void {
    this.socket.close();
  }
}

export interface BackgroundAgent {
  name: string;
  broker: RunningBroker;
  /** A call as the agent makes it; a card it raises is allowed once in the side panel. */
  call(tool: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** A call whose cards the test answers itself. */
  start(tool: string, args?: Record<string, unknown>): Promise<CallToolResult>;
}

export interface BackgroundRig {
  launched: BackgroundBrowser;
  fixtures: FixtureServer;
  panel: SidePanelTarget;
  /** The person's own tab, in front. */
  person: Page;
  agents: BackgroundAgent[];
  close(): Promise<void>;
}

const TOKEN = 'background-token';

/** The browser server of a broker's latest panel session. */
function serverOf(broker: RunningBroker): PanelServer | undefined {
  const session = broker.sessions
    .all()
    .filter((s) => s.servers.length > 0)
    .sort((a, b) => b.attachedAt - a.attachedAt)[0];
  return session?.servers.find((s) => s.name === 'tabwright');
}

/**
 * Two agents (each its own broker, so the test knows whose session is whose), added in the panel
 * with act mode on and the fixture site allowed; then the panel tab used for that is closed and
 * the real side panel opened on the person's tab, which serves both from then on.
 */
export async function startBackgroundRig(
  options: {
    routes?: Route[];
    agents?: string[];
    headed?: boolean;
    /** Another build of the extension (one with `<all_urls>` granted, for screenshots). */
    dist?: string;
    /** Turns screenshots on in the panel's settings. */
    screenshots?: boolean;
  } = {},
): Promise<BackgroundRig> {
  const names = options.agents ?? ['Alpha', 'Beta'];
  const fixtures = await startFixtureServer(options.routes ?? []);
  const brokers = await Promise.all(names.map(() => startBroker({ token: TOKEN, chunkDelayMs: 0 })));
  const launched = await launchInBackgroundMode(options.dist ?? TEST_DIST, options.headed ?? HEADED);
  const setup = await openPanelTab(launched);
  for (const [index, name] of names.entries()) {
    if (index > 0) await setup.getByRole('button', { name: 'Settings' }).click();
    await addAgentThroughForm(setup, { name, url: brokers[index]!.url, token: TOKEN, follow: false });
    await setup.getByRole('button', { name: new RegExp(`^${name}: connected`) }).waitFor({ timeout: 30_000 });
    if (index > 0) await setup.getByRole('button', { name: 'Settings' }).click();
  }
  await setup.getByRole('button', { name: 'Settings' }).click();
  await allowSite(setup, fixtures.allowed);
  await setup.getByRole('switch', { name: 'Act mode' }).check();
  if (options.screenshots) {
    await setup.getByRole('switch', { name: 'Screenshots' }).check();
    await setup.getByRole('switch', { name: 'Screenshots', checked: true }).waitFor();
  }
  await setup.close();

  const person =
    launched.context.pages().find((page) => page.url() === 'about:blank') ?? (await launched.context.newPage());
  await person.goto(fixtures.url('/actions/form.html?person'));
  await person.bringToFront();
  const before = brokers.map((broker) => serverOf(broker));
  const panel = await SidePanelTarget.open(launched, person);
  const servers: PanelServer[] = [];
  for (const [index, broker] of brokers.entries()) {
    await waitFor(() => {
      const server = serverOf(broker);
      if (server && server !== before[index]) servers[index] = server;
      return servers[index] !== undefined;
    }, 30_000);
  }

  const agents = names.map((name, index): BackgroundAgent => {
    const start = (tool: string, args: Record<string, unknown> = {}) => servers[index]!.call(`tabwright.${tool}`, args);
    return {
      name,
      broker: brokers[index]!,
      start,
      async call(tool, args = {}) {
        const pending = start(tool, args);
        let done = false;
        void pending.finally(() => (done = true)).catch(() => undefined);
        while (!done) {
          await panel.allowOnce(name).catch(() => false);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        return pending;
      },
    };
  });

  return {
    launched,
    fixtures,
    panel,
    person,
    agents,
    async close() {
      panel.close();
      await launched.close();
      await Promise.all(brokers.map((broker) => broker.close()));
      await fixtures.close();
    },
  };
}

/** The tab an agent's result names (`new_tab` answers with it). */
export const tabIdOf = (result: CallToolResult) => (result.structuredContent as { tabId: number }).tabId;

/**
 * What the test checks before each task, in the agent's tab: it is hidden, without focus, and a
 * chain of 10 ms timers advances about once a second (Chrome's background alignment), not 100 times.
 */
export async function backgroundControls(page: Page): Promise<{ visibility: string; focus: boolean; steps: number }> {
  // A string, not a function: under tsx (the bench) a function's inner names would be rewritten.
  return page.evaluate(`new Promise((resolve) => {
    let steps = 0;
    const started = performance.now();
    const step = () => {
      steps++;
      if (performance.now() - started < 2000) setTimeout(step, 10);
      else resolve({ visibility: document.visibilityState, focus: document.hasFocus(), steps });
    };
    setTimeout(step, 10);
  })`);
}

/** The person's window and tab, watched from now on: `expectUndisturbed` checks nothing took them. */
export interface PersonWatch {
  windowId: number;
  tabId: number;
  expectUndisturbed(after?: string): Promise<void>;
}

/**
 * Clicks into the person's page (the side panel took the focus when it opened) and records every
 * activation in the person's window and every window focus change from then on.
 */
export async function watchPerson(rig: BackgroundRig): Promise<PersonWatch> {
  await rig.person.getByRole('textbox', { name: 'Text' }).click();
  const [windowId, tabId] = await rig.panel.evaluate<[number, number]>(`(async () => {
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    window.__seen = [];
    chrome.tabs.onActivated.addListener((info) => {
      if (info.windowId === tab.windowId) window.__seen.push('activated ' + info.tabId);
    });
    chrome.windows.onFocusChanged.addListener((id) => window.__seen.push('focused ' + id));
    return [tab.windowId, tab.id];
  })()`);
  return {
    windowId,
    tabId,
    async expectUndisturbed(after) {
      const view = await rig.person.evaluate('({ visibility: document.visibilityState, focus: document.hasFocus() })');
      expect(view, after).toEqual({ visibility: 'visible', focus: true });
      const now = await rig.panel.evaluate<unknown>(`(async () => ({
        seen: window.__seen,
        focused: (await chrome.windows.getLastFocused()).id,
        active: (await chrome.tabs.query({ active: true, windowId: ${windowId} }))[0].id,
      }))()`);
      expect(now, after).toEqual({ seen: [], focused: windowId, active: tabId });
    },
  };
}
