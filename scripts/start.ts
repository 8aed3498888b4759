/**
 * `npm start`: builds the extension if it is out of date, starts the local broker with the demo
 * agent and the kept token (the one `npm run broker` uses), serves a demo page, and launches
 * Chromium with the extension loaded in a throwaway profile, its panel already paired with the
 * broker. Without a display (or with --headless) it drives one exchange through the real panel and
 * prints the transcript.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Worker } from 'playwright-core';
import pkg from '../package.json' with { type: 'json' };
import { keepToken, keptTokenPath } from '../broker/kept-token';
import { startBroker, type RunningBroker } from '../broker/server';
import { AgentProfile, Settings, SETTINGS_VERSION } from '../src/shared/settings';
import { SETTINGS_KEY } from '../src/shared/settings-store';
import { tokenKey } from '../src/shared/stores';

const root = join(import.meta.dirname, '..');
const dist = join(root, 'dist');

function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

function buildIfNeeded(): void {
  const inputs = ['src', 'public/_locales', 'manifest.config.ts', 'vite.config.ts', 'package.json'].map((p) =>
    join(root, p),
  );
  const manifest = join(dist, 'manifest.json');
  if (existsSync(manifest) && newestMtime(manifest) >= Math.max(...inputs.map(newestMtime))) return;
  console.log('Building the extension…');
  execFileSync('npx', ['tsx', 'scripts/tool-manifest.ts'], { cwd: root, stdio: 'inherit' });
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
}

async function serveDemo(): Promise<{ url: string; close(): void }> {
  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://demo').pathname.replace(/^\/+/, '') || 'index.html';
    if (path.includes('..')) return void response.writeHead(403).end();
    try {
      const body = await readFile(join(root, 'demo', path));
      response
        .writeHead(200, { 'content-type': extname(path) === '.html' ? 'text/html; charset=utf-8' : 'text/plain' })
        .end(body);
    } catch {
      response.writeHead(404).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => server.close() };
}

/**
 * Pairs the launched panel with the broker: one agent and its token, written into the extension's
 * storage over the DevTools pipe Playwright drives Chromium through, so the token is in no URL,
 * command line or log.
 */
async function pairPanel(worker: Worker, brokerUrl: string, token: string): Promise<void> {
  const agent = AgentProfile.parse({ id: randomUUID(), name: 'Demo', url: brokerUrl });
  const settings = Settings.parse({ version: SETTINGS_VERSION, agents: [agent] });
  await worker.evaluate((items) => chrome.storage.local.set(items), {
    [SETTINGS_KEY]: settings,
    [tokenKey(agent.id)]: token,
  });
}

/** The usual port when it is free, any free port otherwise, and then it says so. */
async function startOnPort(port: number, options: Parameters<typeof startBroker>[0]): Promise<RunningBroker> {
  try {
    return await startBroker({ ...options, port });
  } catch (error) {
    const broker = await startBroker({ ...options, port: 0 });
    const why =
      (error as NodeJS.ErrnoException).code === 'EADDRINUSE' ? 'is in use' : `failed (${(error as Error).message})`;
    console.log(`Port ${port} ${why}: the broker listens on port ${broker.port} instead.`);
    return broker;
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      headless: { type: 'boolean', default: false },
      port: { type: 'string', default: '8765' },
      agent: { type: 'string' },
    },
  });
  const headless = values.headless || !process.env.DISPLAY;
  buildIfNeeded();
  // The token `npm run broker` keeps: saved agents and MCP clients keep working across both.
  const kept = keepToken(keptTokenPath(process.env));
  const options = {
    token: kept.token,
    version: pkg.version,
    log: (line: string) => console.log(`[broker] ${line}`),
    ...(values.agent ? { agentCommand: values.agent } : {}),
  };
  const broker = await startOnPort(Number(values.port), options);
  const demo = await serveDemo();
  // A copy of dist/ that also tells the first run where this broker is (never the token).
  const extension = mkdtempSync(join(tmpdir(), 'tabwright-extension-'));
  cpSync(dist, extension, { recursive: true });
  writeFileSync(join(extension, 'local-broker.json'), JSON.stringify({ url: broker.url }));
  const profile = mkdtempSync(join(tmpdir(), 'tabwright-profile-'));
  console.log(
    `\nTabwright ${pkg.version}\n  Broker URL: ${broker.url}\n` +
      `  Token:      kept in ${kept.path} (the panel is paired with it already)\n` +
      `  MCP URL:    ${broker.mcpUrl} (header Authorization: Bearer <token>)\n` +
      `  Agent:      ${values.agent ?? 'the demo agent'}\n  Demo page:  ${demo.url}\n`,
  );

  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
    headless,
    args: [
      `--disable-extensions-except=${extension}`,
      `--load-extension=${extension}`,
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      ...(headless ? ['--disable-gpu'] : []),
    ],
    viewport: headless ? { width: 1100, height: 800 } : null,
  });
  const cleanup = async () => {
    await context.close().catch(() => undefined);
    await broker.close();
    demo.close();
    rmSync(profile, { recursive: true, force: true });
    rmSync(extension, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanup().then(() => process.exit(0)));
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(demo.url);
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  const extensionId = new URL(worker.url()).host;
  // The release build has no key, so Chromium names the unpacked copy by its path: admit that id.
  broker.admitExtension(extensionId);
  await pairPanel(worker, broker.url, kept.token);

  if (!headless) {
    console.log('Chromium is open. Click the Tabwright toolbar icon: the Demo agent is there, connected.');
    console.log('Press Ctrl+C to stop.');
    context.on('close', () => void cleanup().then(() => process.exit(0)));
    return;
  }

  console.log('No display: driving one exchange through the real panel, headless.\n');
  const panel = await context.newPage();
  await panel.goto(`chrome-extension://${extensionId}/src/sidepanel/index.html`);
  await panel.getByRole('button', { name: /Demo: connected/ }).waitFor({ timeout: 20_000 });
  const box = panel.getByRole('textbox', { name: 'Message' });
  await box.fill('help');
  await box.press('Enter');
  await panel.locator('article.message.agent.done').first().waitFor({ timeout: 20_000 });
  for (const message of await panel.locator('article.message').all()) {
    const who = await message.locator('.who').textContent();
    const body = await message.locator('.body').innerText();
    console.log(`${who}:\n${body}\n`);
  }
  await cleanup();
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${(error as Error).stack ?? String(error)}`);
  process.exit(1);
});
