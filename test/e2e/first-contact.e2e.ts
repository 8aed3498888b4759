/**
 * A new person's first contact, as the README tells it: `npm run broker` in a fresh config directory
 * prints a URL and a token, a fresh browser profile with the built extension shows the first-run
 * form, and with only what the panel and the broker print, the agent reads an allowed site. Then the
 * broker restarts and the panel reconnects by itself: the token was kept, nothing is edited.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import {
  allowSite,
  launchWithExtension,
  openActiveTab,
  openPanelTab,
  ROOT,
  sendMessage,
  waitFor,
  type Launched,
} from './harness';

interface BrokerRun {
  output(): string;
  stop(): Promise<number | null>;
}

/** `npm run broker -- <args>` as its own process, with its own config directory. */
function runBroker(configHome: string, args: string[]): BrokerRun {
  const child = spawn(process.execPath, ['--import', 'tsx', 'broker/main.ts', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TABWRIGHT_TOKEN: undefined, XDG_CONFIG_HOME: configHome },
  });
  let output = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr.on('data', (data: Buffer) => (output += data.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return {
    output: () => output,
    stop: () => {
      if (child.exitCode === null) child.kill('SIGINT');
      return exited;
    },
  };
}

async function banner(run: BrokerRun): Promise<string> {
  await waitFor(() => run.output().includes('Extensions:'), 60_000);
  return run.output();
}

describe('first contact', () => {
  const configHome = mkdtempSync(join(tmpdir(), 'tabwright-first-contact-'));
  let fixtures: FixtureServer;
  let launched: Launched;
  let broker: BrokerRun | undefined;
  beforeAll(async () => {
    fixtures = await startFixtureServer();
    launched = await launchWithExtension();
  });
  afterAll(async () => {
    await broker?.stop();
    await launched?.close();
    await fixtures?.close();
    rmSync(configHome, { recursive: true, force: true });
  });

  it('goes from the printed URL and token to an agent reading an allowed site, and survives a broker restart', async () => {
    broker = runBroker(configHome, ['--port', '0']);
    const printed = await banner(broker);
    const url = /Broker URL: (ws:\/\/\S+)/.exec(printed)![1]!;
    const token = /Token: +([\w-]{32}) +\(new; kept in (\S+) for the next starts\)/.exec(printed);
    expect(token, printed).not.toBeNull();
    expect(token![2]).toBe(join(configHome, 'tabwright', 'token'));
    expect(statSync(token![2]!).mode & 0o777).toBe(0o600);

    const panel = await openPanelTab(launched);
    // The first run: what it is, with the command as code; a name to keep; nothing red to press.
    const intro = panel.locator('.first-run p').first();
    expect(await intro.locator('code').textContent()).toBe('npm run broker');
    expect(await intro.textContent()).not.toContain('`');
    expect(await panel.getByRole('button', { name: 'Disconnect all' }).count()).toBe(0);
    const name = panel.getByRole('textbox', { name: 'Agent name' });
    expect(await name.inputValue()).toBe('My agent');
    expect(await panel.getByRole('textbox', { name: 'Broker URL' }).inputValue()).toBe('ws://127.0.0.1:8765/acp');
    const insecure = panel.getByRole('checkbox', { name: /unencrypted ws:\/\// });
    expect(await insecure.isVisible()).toBe(false);
    await panel.getByRole('textbox', { name: 'Broker URL' }).fill('ws://broker.example:8765/acp');
    expect(await insecure.isVisible()).toBe(true);

    // Only what the broker printed goes in: its URL and its token.
    await panel.getByRole('textbox', { name: 'Broker URL' }).fill(url);
    expect(await insecure.isVisible()).toBe(false);
    await panel.getByLabel('Token', { exact: true }).fill(token![1]!);
    await panel.getByRole('checkbox', { name: 'Follow my current tab' }).check();
    await panel.getByRole('button', { name: 'Add agent' }).click();
    const connected = panel.getByRole('button', { name: /^My agent: connected/ });
    await connected.waitFor({ timeout: 30_000 });
    expect(await panel.getByRole('button', { name: 'Disconnect all' }).isVisible()).toBe(true);

    await panel.getByRole('button', { name: 'Settings' }).click();
    await allowSite(panel, fixtures.allowed);
    await panel.getByRole('button', { name: 'Settings' }).click();
    await openActiveTab(launched, fixtures.url('/index.html'));
    const replies = panel.locator('article.message.agent.done[aria-busy="false"]');
    await sendMessage(panel, 'snapshot');
    await expect.poll(() => replies.count(), { timeout: 30_000 }).toBe(1);
    expect(await replies.nth(0).locator('.body').innerText()).toContain('heading "Tabwright demo page"');

    // The broker restarts on its port, with the token it kept: no token is printed, none is edited.
    const port = new URL(url).port;
    expect(await broker.stop()).toBe(0);
    await panel.getByRole('button', { name: /^My agent: nothing listening/ }).waitFor({ timeout: 30_000 });
    broker = runBroker(configHome, ['--port', port]);
    const again = await banner(broker);
    expect(again).toContain(`Token:      (kept in ${token![2]}, the same as before)`);
    expect(again).not.toContain(token![1]!);
    await connected.waitFor({ timeout: 60_000 });
    await sendMessage(panel, 'snapshot');
    await expect.poll(() => replies.count(), { timeout: 30_000 }).toBe(2);
    expect(await replies.nth(1).locator('.body').innerText()).toContain('heading "Tabwright demo page"');
    await panel.close();
  });
});
