/**
 * `npm run broker` as a process: it prints where to connect, relays to an `--agent`, keeps the
 * token it was given out of its output, and on SIGINT closes the sockets, stops the agent
 * processes and exits 0.
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nodePanel, scriptedBrowser, until, type NodePanel } from '../peers/node-panel';
import { stdioAgentCommand } from '../peers/stdio-agent-command';

const ROOT = resolve(import.meta.dirname, '../..');
const TOKEN = 'process-test-token';
let panel: NodePanel | undefined;
afterEach(() => panel?.close());

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('the broker process', { timeout: 90_000 }, () => {
  it('fronts an agent, never logs the token, and shuts down cleanly on SIGINT', async () => {
    const broker = spawn(
      process.execPath,
      ['--import', 'tsx', 'broker/main.ts', '--port', '0', '--token', TOKEN, '--agent', stdioAgentCommand()],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    broker.stdout.on('data', (data: Buffer) => (output += data.toString()));
    broker.stderr.on('data', (data: Buffer) => (output += data.toString()));
    const exited = new Promise<number | null>((r) => broker.once('exit', (code) => r(code)));
    await until(() => output.includes('MCP URL:'), 30_000, 'the banner');
    const url = /Broker URL: (ws:\/\/\S+)/.exec(output)![1]!;
    expect(output).toMatch(/MCP URL:\s+http:\/\/127\.0\.0\.1:\d+\/mcp/);

    panel = nodePanel({ url, token: TOKEN, servers: [scriptedBrowser()] });
    await until(() => panel!.connection.status === 'connected', 30_000, 'the panel to connect');
    panel.connection.send('tools');
    await until(() => panel!.turns.length === 1, 30_000, 'the answer');
    expect(panel.text()).toMatch(/^tools: snapshot, /);
    const pid = Number(/runs in agent process (\d+)/.exec(output)?.[1]);
    expect(alive(pid)).toBe(true);

    broker.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(alive(pid)).toBe(false);
    await until(() => panel!.connection.status !== 'connected', 10_000, 'the panel to see the close');

    const lines = output.split('\n');
    expect(lines.filter((line) => line.includes(TOKEN))).toEqual([]);
    expect(lines).toContain('  Token:      (given with --token)');
    expect(output).toContain('[broker] shutting down');
  });
});
