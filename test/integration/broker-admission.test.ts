/**
 * Who the broker lets in, over real sockets: the test build's extension and the ones named with
 * `--extension-id`, a program only with the token; without a token, the extension alone, `/mcp`
 * off and no agent; the token from a private file, and a warning for `--token`.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { WebSocket } from 'ws';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TEST_BUILD_EXTENSION_ID } from '../../broker/extension-ids';
import { startBroker, type RunningBroker } from '../../broker/server';
import { nodePanel, scriptedBrowser, until, type NodePanel } from '../peers/node-panel';
import { stdioAgentCommand } from '../peers/stdio-agent-command';

const ROOT = resolve(import.meta.dirname, '../..');
const TOKEN = 'admission-test-token';
const OTHER_ID = 'kjihgfedcbaponmlkjihgfedcbaponml';
const NAMED_ID = 'abcdefghijklmnopabcdefghijklmnop';
const origin = (id: string) => `chrome-extension://${id}`;
const OPEN = { status: 101, body: '' };

let broker: RunningBroker | undefined;
const panels: NodePanel[] = [];
const dir = mkdtempSync(join(tmpdir(), 'tabwright-admission-'));

afterEach(async () => {
  for (const panel of panels.splice(0)) panel.close();
  await broker?.close();
  broker = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * One WebSocket handshake: 101 when it opens and stays open, else the HTTP refusal's status and
 * body, or the close code and reason the broker closed with at once.
 */
function upgrade(url: string, protocols: string[], headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string; closeCode?: number; closeReason?: string }>((done) => {
    const ws = new WebSocket(url, protocols, { headers });
    ws.on('unexpected-response', (_request, response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => done({ status: response.statusCode ?? 0, body }));
    });
    ws.on('open', () => {
      const stays = setTimeout(() => {
        ws.close();
        done({ status: 101, body: '' });
      }, 300);
      ws.once('close', (closeCode: number, reason: Buffer) => {
        clearTimeout(stays);
        done({ status: 101, body: '', closeCode, closeReason: reason.toString() });
      });
    });
    ws.on('error', () => undefined);
  });
}

function panelAt(url: string, token: string, panelOrigin?: string): NodePanel {
  const panel = nodePanel({
    url,
    token,
    servers: [scriptedBrowser()],
    ...(panelOrigin ? { origin: panelOrigin } : {}),
  });
  panels.push(panel);
  return panel;
}

/** The demo agent runs the panel's snapshot tool: proof the connection drives the browser. */
async function snapshotThrough(panel: NodePanel): Promise<void> {
  await until(() => panel.connection.status === 'connected', 20_000, 'the panel to connect');
  panel.connection.send('snapshot');
  await until(() => panel.turns.length === 1, 20_000, 'the answer');
  expect(panel.text()).toContain('heading "Fixture"');
}

interface BrokerProcess {
  output(): string;
  stderr(): string;
  exited: Promise<number | null>;
  kill(): void;
}

/** `npm run broker -- <args>` as a separate process. */
function brokerProcess(args: string[], env: Record<string, string> = {}): BrokerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'broker/main.ts', '--port', '0', ...args], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, TABWRIGHT_TOKEN: undefined, ...env },
  });
  let output = '';
  let stderr = '';
  child.stdout.on('data', (data: Buffer) => (output += data.toString()));
  child.stderr.on('data', (data: Buffer) => {
    output += data.toString();
    stderr += data.toString();
  });
  return {
    output: () => output,
    stderr: () => stderr,
    exited: new Promise((done) => child.once('exit', (code) => done(code))),
    kill: () => child.kill('SIGINT'),
  };
}

async function bannerOf(run: BrokerProcess): Promise<{ url: string; mcpUrl: string }> {
  let gone = false;
  void run.exited.then(() => (gone = true));
  await until(() => run.output().includes('Extensions:') || gone, 60_000, 'the banner');
  if (!run.output().includes('Extensions:')) throw new Error(`the broker exited: ${run.output()}`);
  return {
    url: /Broker URL: (ws:\/\/\S+)/.exec(run.output())![1]!,
    mcpUrl: /MCP URL:\s+(\S+)/.exec(run.output())![1]!,
  };
}

function privateFile(name: string, text: string, mode: number): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  chmodSync(path, mode);
  return path;
}

describe('broker admission with a token', () => {
  const good = [`openab.bearer.${TOKEN}`, 'acp.v1'];

  it('admits the test build’s extension and those named, refuses other extensions and pages', async () => {
    broker = await startBroker({ token: TOKEN, extensionIds: [NAMED_ID] });
    expect(await upgrade(broker.url, good, { origin: origin(TEST_BUILD_EXTENSION_ID) })).toEqual(OPEN);
    expect(await upgrade(broker.url, good, { origin: origin(NAMED_ID) })).toEqual(OPEN);
    // An extension cannot read an HTTP refusal: it is told in a close frame instead.
    expect(await upgrade(broker.url, good, { origin: origin(OTHER_ID) })).toEqual({
      status: 101,
      body: '',
      closeCode: 4403,
      closeReason: `extension not admitted: start the broker with --extension-id ${OTHER_ID}`,
    });
    expect((await upgrade(broker.url, good, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await upgrade(broker.url, good, { origin: 'http://localhost:3000' })).status).toBe(403);
  });

  it('admits an extension named once it runs (the id `npm start` learns from Chromium)', async () => {
    broker = await startBroker({ token: TOKEN });
    expect(await upgrade(broker.url, good, { origin: origin(OTHER_ID) })).toMatchObject({ closeCode: 4403 });
    broker.admitExtension(OTHER_ID);
    expect(await upgrade(broker.url, good, { origin: origin(OTHER_ID) })).toEqual(OPEN);
    expect(() => broker!.admitExtension('not-an-id')).toThrow(/32 letters a–p/);
  });

  it('lets the extension drive the agent, and not another extension even with the token', async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    await snapshotThrough(panelAt(broker.url, TOKEN, origin(TEST_BUILD_EXTENSION_ID)));
    const intruder = panelAt(broker.url, TOKEN, origin(OTHER_ID));
    await until(() => intruder.connection.status === 'not_admitted', 20_000, 'the other extension to be refused');
    expect(intruder.turns).toEqual([]);
  });

  it('tells an extension a wrong token and a wrong path in a close frame, a program over HTTP', async () => {
    broker = await startBroker({ token: TOKEN });
    const panel = { origin: origin(TEST_BUILD_EXTENSION_ID) };
    expect(await upgrade(broker.url, ['openab.bearer.wrong', 'acp.v1'], panel)).toMatchObject({
      closeCode: 4401,
      closeReason: 'wrong token',
    });
    expect(await upgrade(broker.url, ['acp.v1'], panel)).toMatchObject({ closeCode: 4401 });
    const wrongPath = broker.url.replace(/\/acp$/, '/wrong');
    expect(await upgrade(wrongPath, good, panel)).toMatchObject({ closeCode: 4404 });
    const program = await upgrade(wrongPath, good);
    expect(program).toMatchObject({ status: 404, body: 'Only /acp accepts WebSocket connections\n' });
  });

  it('admits a program that sends no Origin only with the right token', async () => {
    broker = await startBroker({ token: TOKEN });
    expect(await upgrade(broker.url, good)).toEqual(OPEN);
    expect((await upgrade(broker.url, ['openab.bearer.wrong', 'acp.v1'])).status).toBe(401);
    expect((await upgrade(broker.url, ['acp.v1'])).status).toBe(401);
  });
});

describe('broker admission without a token', () => {
  it('lets the extension alone drive /acp', async () => {
    broker = await startBroker({ token: '', chunkDelayMs: 0 });
    await snapshotThrough(panelAt(broker.url, '', origin(TEST_BUILD_EXTENSION_ID)));
    const program = await upgrade(broker.url, ['acp.v1']);
    expect(program.status).toBe(403);
    expect(program.body).toMatch(/without a token/);
    expect(await upgrade(broker.url, ['acp.v1'], { origin: origin(OTHER_ID) })).toMatchObject({ closeCode: 4403 });
  });

  it('turns /mcp off with a JSON-RPC error that says why', async () => {
    broker = await startBroker({ token: '' });
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    };
    const askers: Record<string, string>[] = [{}, { origin: origin(TEST_BUILD_EXTENSION_ID) }];
    for (const headers of askers) {
      const response = await fetch(broker.mcpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
        body: JSON.stringify(initialize),
      });
      expect(response.status).toBe(403);
      const body = (await response.json()) as { error: { message: string } };
      expect(body.error.message).toMatch(/runs without a token.*\/mcp is off/);
    }
    const client = new Client({ name: 'admission-test', version: '1.0.0' });
    await expect(client.connect(new StreamableHTTPClientTransport(new URL(`${broker.mcpUrl}/x`)))).rejects.toThrow(
      /without a token/,
    );
  });

  it('will not front an agent command', async () => {
    await expect(startBroker({ token: '', agentCommand: stdioAgentCommand() })).rejects.toThrow(/needs a token/);
  });
});

describe('the broker command line', { timeout: 120_000 }, () => {
  it('refuses --no-token with --agent, and a token file others can read, before listening', async () => {
    const open = privateFile('open-token', 'open-secret\n', 0o644);
    const runs = [brokerProcess(['--no-token', '--agent', stdioAgentCommand()]), brokerProcess(['--token-file', open])];
    const codes = await Promise.all(runs.map((run) => run.exited));
    expect(codes).toEqual([1, 1]);
    expect(runs[0]!.stderr()).toMatch(/--no-token cannot front an --agent/);
    expect(runs[1]!.stderr()).toContain(`--token-file ${open} can be read by other users (mode 0644)`);
    for (const run of runs) expect(run.output()).not.toMatch(/listening|open-secret/);
  });

  it('reads a 0600 token file, admits --extension-id, and never prints the token', async () => {
    const path = privateFile('token', `${TOKEN}\n`, 0o600);
    const run = brokerProcess(['--token-file', path, '--extension-id', `${OTHER_ID},${NAMED_ID}`]);
    try {
      const { url } = await bannerOf(run);
      expect(run.output()).toContain('Token:      (read from --token-file)');
      expect(run.output()).toContain(`Extensions: ${TEST_BUILD_EXTENSION_ID} (test build), ${OTHER_ID}, ${NAMED_ID}`);
      await snapshotThrough(panelAt(url, TOKEN, origin(NAMED_ID)));
      expect(
        await upgrade(url, ['acp.v1'], { origin: 'chrome-extension://ponmlkjihgfedcbaponmlkjihgfedcba' }),
      ).toMatchObject({ closeCode: 4403 });
      expect(run.stderr()).toBe('');
    } finally {
      run.kill();
      expect(await run.exited).toBe(0);
    }
    expect(run.output()).not.toContain(TOKEN);
  });

  it('warns on stderr that --token shows in ps, without printing it', async () => {
    const run = brokerProcess(['--token', TOKEN]);
    try {
      const { url } = await bannerOf(run);
      expect(run.stderr()).toMatch(/warning: --token puts the token on the command line.*\(ps\)/);
      expect(run.stderr()).toMatch(/--token-file <path> \(mode 0600\) or the TABWRIGHT_TOKEN/);
      expect(await upgrade(url, [`openab.bearer.${TOKEN}`, 'acp.v1'])).toEqual(OPEN);
    } finally {
      run.kill();
      await run.exited;
    }
    expect(run.output()).not.toContain(TOKEN);
  });

  it('says nothing of the kind for TABWRIGHT_TOKEN', async () => {
    const run = brokerProcess([], { TABWRIGHT_TOKEN: TOKEN });
    try {
      await bannerOf(run);
      expect(run.output()).toContain('Token:      (from TABWRIGHT_TOKEN)');
    } finally {
      run.kill();
      await run.exited;
    }
    expect(run.stderr()).toBe('');
    expect(run.output()).not.toContain(TOKEN);
  });
});
