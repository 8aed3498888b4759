/**
 * The agent CLIs people use, behind `--agent`, with the panel's own client in Node: Claude Code
 * (claude-agent-acp), Codex (codex-acp) and Gemini CLI, pinned in test/agents. No model is
 * reachable: each agent is pointed at a loopback endpoint that refuses every request, so what is
 * tested is everything around the model — sign-in, sessions, the agent's MCP client reaching the
 * panel's tools through the broker, errors, and processes.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { DEFAULT_BACKOFF } from '../../src/acp/backoff';
import { FakeClock } from '../../src/acp/fake-clock';
import { signInOptions } from '../../src/acp/sign-in';
import { FIXTURE_SNAPSHOT, scriptedBrowser, until } from '../peers/node-panel';
import { startScriptedAnthropic } from '../peers/scripted-anthropic';
import { panelClient } from './panel-client';

const BIN = join(import.meta.dirname, '..', 'agents', 'node_modules', '.bin');
const installed = ['claude-agent-acp', 'codex-acp', 'gemini'].every((name) => existsSync(join(BIN, name)));
if (!installed) {
  console.warn(
    '\n*** SKIPPING the real agent CLI tests: test/agents is not installed. Run `npm install --prefix test/agents` (CI does). ***\n',
  );
}

const TOKEN = 'real-agent-token';
let refusing: Server;
let refusingUrl = '';
let scratch = '';

beforeAll(async () => {
  // Stands in for a model provider that answers every request with an error, at once.
  refusing = createServer((request, response) => {
    request.resume();
    request.on('end', () =>
      response.writeHead(400, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          type: 'error',
          error: {
            type: 'invalid_request_error',
            code: 400,
            status: 'INVALID_ARGUMENT',
            message: 'no model here: this endpoint stands in for one',
          },
        }),
      ),
    );
  });
  await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
  refusingUrl = `http://127.0.0.1:${(refusing.address() as AddressInfo).port}`;
  // Not under /tmp: Codex refuses to put its helper binaries in a temporary directory.
  mkdirSync(join(import.meta.dirname, '..', '..', '.cache'), { recursive: true });
  scratch = mkdtempSync(join(import.meta.dirname, '..', '..', '.cache', 'agents-'));
});

afterAll(async () => {
  await new Promise((resolve) => refusing?.close(resolve));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

function shellEnv(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([name, value]) => `${name}='${value.replace(/'/g, `'\\''`)}' `)
    .join('');
}

interface Run {
  broker: RunningBroker;
  logs: string[];
  panel: ReturnType<typeof panelClient>;
  listed: () => number;
  launches: () => number[];
}

async function run(command: string, cwd: string, clock?: FakeClock): Promise<Run> {
  const logs: string[] = [];
  const broker = await startBroker({ token: TOKEN, agentCommand: command, agentCwd: cwd, log: (l) => logs.push(l) });
  const browser = scriptedBrowser();
  let listed = 0;
  const list = browser.list.bind(browser);
  browser.list = () => (listed++, list());
  const panel = panelClient({
    url: broker.url,
    token: TOKEN,
    servers: [{ acpId: '00000000-0000-4000-8000-000000000001', server: browser }],
    ...(clock ? { clock, timing: { backoff: DEFAULT_BACKOFF, handshakeTimeoutMs: 90_000 } } : {}),
    ...(clock ? {} : { timing: { handshakeTimeoutMs: 90_000 } }),
  });
  return {
    broker,
    logs,
    panel,
    listed: () => listed,
    launches: () => logs.flatMap((line) => /^agent process (\d+) started$/.exec(line)?.[1] ?? []).map(Number),
  };
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function shutDown(r: Run): Promise<void> {
  const pids = r.launches();
  r.panel.connection.disable();
  await r.broker.close();
  await until(() => pids.every((pid) => !groupAlive(pid)), 10_000, 'every agent process to end');
}

/** Waits for a status, saying where the panel and broker stood if it never comes. */
async function reach(r: Run, status: string, what: string): Promise<void> {
  try {
    await until(() => r.panel.connection.status === status, 90_000, what);
  } catch (error) {
    report(`statuses: ${JSON.stringify(r.panel.recorded.statuses).slice(-1_500)}`);
    report(`broker log: ${r.logs.slice(-30).join('\n')}`);
    throw error;
  }
}

async function prompt(r: Run, text: string): Promise<unknown> {
  const turns = r.panel.recorded.turns.length;
  r.panel.connection.send(text);
  await until(() => r.panel.recorded.turns.length > turns, 120_000, `the answer to “${text}”`);
  return r.panel.recorded.turns.at(-1)!.outcome;
}

/** Lets real sockets and processes run while the panel's clock covers `ms`. */
async function pass(clock: FakeClock, ms: number): Promise<void> {
  for (let covered = 0; covered < ms; covered += 1_000) {
    await clock.advance(1_000);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function report(line: string): void {
  console.log(`[real agents] ${line}`);
}

describe.skipIf(!installed)('real agent CLIs behind the broker', { timeout: 300_000 }, () => {
  it('Codex: needs sign-in, stays one process while it waits, signs in with CODEX_API_KEY, lists the tools, says why a prompt failed', async () => {
    const home = join(scratch, 'codex-home');
    mkdirSync(home, { recursive: true });
    const command = `${shellEnv({ CODEX_HOME: home, CODEX_API_KEY: 'sk-dummy-codex-key-for-tests' })}'${join(BIN, 'codex-acp')}'`;
    const clock = new FakeClock();
    const opened = Date.now();
    const r = await run(command, scratch, clock);
    r.panel.connection.enable();
    await reach(r, 'needs_signin', 'the sign-in state');
    const options = signInOptions(r.panel.connection.authMethods);
    expect(options.map((o) => o.id)).toEqual(['chatgpt', 'codex-api-key', 'openai-api-key']);
    expect(options.find((o) => o.id === 'codex-api-key')!.instruction).toContain('CODEX_API_KEY=…');
    await pass(clock, 150_000);
    expect(r.panel.connection.status).toBe('needs_signin');
    expect(r.launches()).toHaveLength(1);
    expect(r.panel.recorded.statuses.map(([s]) => s)).not.toContain('unreachable');

    const signingIn = Date.now();
    r.panel.connection.signIn('codex-api-key');
    await reach(r, 'connected', 'the session after signing in');
    report(
      `codex-acp: panel open → needs sign-in ${signingIn - opened} ms (incl. 150 s of fake panel time); sign-in → connected ${Date.now() - signingIn} ms`,
    );
    await until(() => r.listed() > 0, 60_000, 'Codex’s MCP client to list the tools');
    const outcome = (await prompt(r, 'Say hello.')) as { error?: string };
    report(`codex-acp prompt outcome: ${JSON.stringify(outcome).slice(0, 400)}`);
    // Offline, the provider cannot be reached; online, it refuses the dummy key: either is said in words.
    expect(outcome.error).toMatch(/stream disconnected|error sending request|401|unauthorized|api key/i);
    expect(outcome.error).not.toBe('Internal error');
    expect(r.launches()).toHaveLength(1);
    await shutDown(r);
  });

  it('Gemini CLI without a key: needs sign-in, one process for 150 s, and a sign-in that cannot work says why', async () => {
    const home = join(scratch, 'gemini-keyless');
    mkdirSync(home, { recursive: true });
    const command = `${shellEnv({ HOME: home, GEMINI_API_KEY: '', GOOGLE_API_KEY: '' })}'${join(BIN, 'gemini')}' --experimental-acp`;
    const clock = new FakeClock();
    const r = await run(command, scratch, clock);
    r.panel.connection.enable();
    await reach(r, 'needs_signin', 'the sign-in state');
    expect(r.panel.recorded.statuses.at(-1)![1]).toMatch(/needs signing in: .*Gemini API key is missing/);
    const options = signInOptions(r.panel.connection.authMethods);
    expect(options.map((o) => o.id)).toEqual(expect.arrayContaining(['oauth-personal', 'gemini-api-key']));
    await pass(clock, 150_000);
    expect(r.panel.connection.status).toBe('needs_signin');
    expect(r.launches()).toHaveLength(1);
    const before = r.panel.recorded.statuses.length;
    r.panel.connection.signIn('gemini-api-key');
    await until(
      () => r.panel.recorded.statuses.length > before + 1 && r.panel.connection.status === 'needs_signin',
      90_000,
      'the refused sign-in',
    );
    // Gemini takes the choice, then still refuses the session: the key is what is missing.
    expect(r.panel.recorded.statuses.at(-1)![1]).toMatch(/Gemini API key is missing/);
    expect(r.launches()).toHaveLength(1);
    await shutDown(r);
  });

  it('Gemini CLI with GEMINI_API_KEY, in a trusted folder: lists the tools and says why a prompt failed', async () => {
    const home = join(scratch, 'gemini-home');
    const project = join(scratch, 'gemini-project');
    mkdirSync(join(home, '.gemini'), { recursive: true });
    mkdirSync(project, { recursive: true });
    // Gemini starts the MCP servers a client gives it only in a folder the user trusts.
    writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [project]: 'TRUST_FOLDER' }));
    writeFileSync(
      join(home, '.gemini', 'settings.json'),
      JSON.stringify({ security: { folderTrust: { enabled: true } } }),
    );
    const command = `${shellEnv({
      HOME: home,
      GEMINI_API_KEY: 'dummy-gemini-key-for-tests',
      GOOGLE_GEMINI_BASE_URL: refusingUrl,
    })}'${join(BIN, 'gemini')}' --experimental-acp`;
    const opened = Date.now();
    const r = await run(command, project);
    r.panel.connection.enable();
    await reach(r, 'connected', 'the session');
    report(`gemini: panel open → connected ${Date.now() - opened} ms`);
    await until(() => r.listed() > 0, 60_000, 'Gemini’s MCP client to list the tools');
    const outcome = (await prompt(r, 'Say hello.')) as { error?: string; stopReason?: string };
    report(`gemini prompt outcome: ${JSON.stringify(outcome).slice(0, 400)}`);
    const said = `${outcome.error ?? ''} ${r.panel.text()}`;
    expect(said).toMatch(/no model here|400|INVALID_ARGUMENT/);
    expect(r.launches()).toHaveLength(1);
    await shutDown(r);
  });

  it('Claude Code: no sign-in needed with a key, starts as root with IS_SANDBOX=1, lists the tools, says why a prompt failed', async () => {
    const config = join(scratch, 'claude-config');
    mkdirSync(config, { recursive: true });
    const env: Record<string, string> = {
      CLAUDE_CONFIG_DIR: config,
      ANTHROPIC_BASE_URL: refusingUrl,
      ANTHROPIC_API_KEY: 'sk-ant-dummy-key-for-tests',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    };
    if (process.getuid?.() === 0) env.IS_SANDBOX = '1';
    const command = `${shellEnv(env)}'${join(BIN, 'claude-agent-acp')}'`;
    const opened = Date.now();
    const r = await run(command, scratch);
    r.panel.connection.enable();
    await reach(r, 'connected', 'the session');
    report(`claude-agent-acp: panel open → connected ${Date.now() - opened} ms`);
    // It lists a terminal login, with the command to run.
    const login = signInOptions(r.panel.connection.authMethods).find((o) => o.kind === 'terminal');
    expect(login?.command).toMatch(/claude-agent-acp' --cli$/);
    expect(login?.command).not.toContain('sk-ant-dummy-key-for-tests');
    const outcome = (await prompt(r, 'Say hello.')) as { error?: string; stopReason?: string };
    report(`claude-agent-acp prompt outcome: ${JSON.stringify(outcome).slice(0, 400)}`);
    const said = `${outcome.error ?? ''} ${r.panel.text()}`;
    expect(said).toMatch(/no model here|400/);
    await until(() => r.listed() > 0, 60_000, 'Claude Code’s MCP client to list the tools');
    expect(r.launches()).toHaveLength(1);
    await shutDown(r);
  });

  it('Claude Code with a scripted model calls a Tabwright tool through the panel and answers with its result', async () => {
    const model = await startScriptedAnthropic(/snapshot$/, (result) => `The page says: ${result.split('\n')[0]}`);
    try {
      const config = join(scratch, 'claude-scripted');
      mkdirSync(config, { recursive: true });
      const env: Record<string, string> = {
        CLAUDE_CONFIG_DIR: config,
        ANTHROPIC_BASE_URL: model.url,
        ANTHROPIC_API_KEY: 'sk-ant-dummy-key-for-tests',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      };
      if (process.getuid?.() === 0) env.IS_SANDBOX = '1';
      const r = await run(`${shellEnv(env)}'${join(BIN, 'claude-agent-acp')}'`, scratch);
      r.panel.connection.enable();
      await reach(r, 'connected', 'the session');
      const answering = setInterval(() => {
        for (const prompt of r.panel.recorded.permissions.splice(0)) {
          const allow = prompt.request.options.find((option) => option.kind === 'allow_once');
          prompt.answer(allow?.optionId ?? null);
        }
      }, 50);
      try {
        const outcome = (await prompt(r, 'What does the page say?')) as { stopReason?: string; error?: string };
        report(`claude scripted: tool ${model.toolName}; outcome ${JSON.stringify(outcome)}; text ${r.panel.text()}`);
        expect(outcome.stopReason).toBe('end_turn');
      } finally {
        clearInterval(answering);
      }
      expect(model.toolResult).toContain(FIXTURE_SNAPSHOT.split('\n')[0]);
      expect(r.panel.text()).toContain('The page says: # snapshot — Fixture');
      await shutDown(r);
    } finally {
      await model.close();
    }
  });
});
