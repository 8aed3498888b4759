/**
 * Each reason a connection is refused, as the panel says it: the project's broker tells a wrong
 * token, an extension it does not admit (with the `--extension-id` line to copy) and a wrong path in
 * its close frame; a WebSocket server that is not a broker, a server that turns the socket away
 * without a reason (as OpenAB does over HTTP) and an address where nothing listens are told apart by
 * the panel itself.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { addAgentThroughForm, launchWithExtension, openPanelTab, TEST_DIST, type Launched } from './harness';

const TOKEN = 'refusals-token';

/** A port nothing listens on: bound, read, released. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Adds an agent and waits for its chip to show `status`; resolves with its problem note. */
async function refused(panel: Page, name: string, url: string, token: string, status: string) {
  // The first agent is added on the first-run form, the next ones in Settings.
  const settings = panel.getByRole('button', { name: 'Settings' });
  if ((await panel.locator('.first-run').count()) === 0 && (await settings.getAttribute('aria-pressed')) !== 'true') {
    await settings.click();
  }
  await addAgentThroughForm(panel, { name, url, token });
  await panel.getByRole('button', { name: new RegExp(`^${name}: ${status},`) }).waitFor({ timeout: 30_000 });
  const note = panel.getByRole('group', { name: `${name} cannot connect` });
  await note.waitFor();
  return note;
}

describe('a refused connection says why', () => {
  let broker: RunningBroker;
  let launched: Launched;
  let panel: Page;
  beforeAll(async () => {
    broker = await startBroker({ token: TOKEN });
    launched = await launchWithExtension();
    panel = await openPanelTab(launched);
  });
  afterAll(async () => {
    await launched?.close();
    await broker?.close();
  });

  it('wrong token', async () => {
    const note = await refused(panel, 'Wrong token', broker.url, 'not-the-token', 'wrong token');
    expect(await note.innerText()).toContain(
      'The broker refused the token. Paste the token the broker printed when it started into this agent’s settings.',
    );
    expect(await panel.locator('body').innerText()).not.toContain('auth failed');
  });

  it('wrong path', async () => {
    const wrong = broker.url.replace(/\/acp$/, '/wrong');
    const note = await refused(panel, 'Wrong path', wrong, TOKEN, 'wrong path');
    expect(await note.innerText()).toContain(
      `This is a Tabwright broker, but it serves /acp. Change the broker URL to ${broker.url}.`,
    );
  });

  it('nothing listening', async () => {
    const url = `ws://127.0.0.1:${await freePort()}/acp`;
    const note = await refused(panel, 'Nobody', url, TOKEN, 'nothing listening');
    expect(await note.innerText()).toContain(
      `Nothing is listening at ${url}. Is the broker running? The local one starts with npm run broker`,
    );
    expect(await note.locator('code').textContent()).toBe('npm run broker');
  });

  it('a WebSocket server that is not a broker, never showing the token it echoed', async () => {
    // `ws` picks the first subprotocol offered: here the one that carries the token.
    const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/acp`;
      const note = await refused(panel, 'Echo', url, 'echoed-secret', 'not a broker');
      expect(await note.innerText()).toContain(
        `The server at ${url} is not an ACP broker: it did not accept the acp.v1 subprotocol. Check the broker URL.`,
      );
      const chip = panel.getByRole('button', { name: /^Echo:/ });
      expect(`${await panel.locator('body').innerText()} ${await chip.getAttribute('title')}`).not.toContain(
        'echoed-secret',
      );
    } finally {
      server.close();
    }
  });

  it('a server that turns the socket away without a reason, as OpenAB does over HTTP', async () => {
    const server = createServer((_request, response) => response.writeHead(401).end('unauthorized\n'));
    const port = await listen(server);
    try {
      const url = `ws://127.0.0.1:${port}/acp`;
      const note = await refused(panel, 'Other', url, TOKEN, 'connection refused');
      expect(await note.innerText()).toContain(
        `A server answers at ${url} but refused the connection without saying why.`,
      );
      expect(await note.innerText()).toContain('if it is OpenAB, check the token and that the path is /acp.');
    } finally {
      server.close();
    }
  });

  it('extension not admitted, with the --extension-id line to copy, and connected once admitted', async () => {
    // The build without the test key, loaded the way "Load unpacked" does: Chromium names it by its path.
    const unpacked = mkdtempSync(join(tmpdir(), 'tabwright-unpacked-'));
    cpSync(TEST_DIST, unpacked, { recursive: true });
    const manifestFile = join(unpacked, 'manifest.json');
    const { key: _key, ...manifest } = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const other = await launchWithExtension(unpacked);
    try {
      const id = other.extensionId;
      const otherPanel = await openPanelTab(other);
      await otherPanel.bringToFront();
      const note = await refused(otherPanel, 'Unpacked', broker.url, TOKEN, 'extension not admitted');
      expect(await note.innerText()).toContain(
        'The broker does not admit this extension. Restart the broker with this option, added to any you already give it:',
      );
      const command = `npm run broker -- --extension-id ${id}`;
      expect(await note.locator('pre').innerText()).toBe(command);
      await note.getByRole('button', { name: 'Copy the command' }).click();
      await note.getByRole('button', { name: 'Copy the command' }).filter({ hasText: 'Copied' }).waitFor();

      broker.admitExtension(id);
      await note.getByRole('button', { name: 'Reconnect' }).click();
      await otherPanel.getByRole('button', { name: /^Unpacked: connected/ }).waitFor({ timeout: 30_000 });
      expect(await otherPanel.getByRole('group', { name: 'Unpacked cannot connect' }).count()).toBe(0);
    } finally {
      await other.close();
      rmSync(unpacked, { recursive: true, force: true });
    }
  });
});
