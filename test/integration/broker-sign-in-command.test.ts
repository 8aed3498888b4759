/**
 * A terminal login the broker spells out for the panel: an agent's variable names must be plain
 * names (one that is shell is refused, saying why, and never shown as a command), every value is
 * quoted, and an agent cannot pass a command of its own off as the broker's. The agent is the
 * SDK-written stdio test agent, started by the broker as a user's agent.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { signInOptions } from '../../src/acp/sign-in';
import { nodePanel, scriptedBrowser, until, type NodePanel } from '../peers/node-panel';
import { stdioAgentCommand } from '../peers/stdio-agent-command';

const TOKEN = 'sign-in-command-token';
let broker: RunningBroker | undefined;
const panels: NodePanel[] = [];
const logs: string[] = [];

afterEach(async () => {
  for (const panel of panels.splice(0)) panel.close();
  await broker?.close();
  broker = undefined;
  logs.length = 0;
});

describe('a terminal login spelled out by the broker', { timeout: 90_000 }, () => {
  it('refuses a variable name that is shell, quotes every value, and drops a command the agent forged', async () => {
    const command = stdioAgentCommand({ STDIO_AGENT_AUTH: 'hostile', TEST_AGENT_KEY: 'dummy-key-for-tests' });
    broker = await startBroker({ token: TOKEN, agentCommand: command, log: (line) => logs.push(line) });
    const panel = nodePanel({ url: broker.url, token: TOKEN, servers: [scriptedBrowser()] });
    panels.push(panel);
    await until(() => panel.connection.status === 'needs_signin', 30_000, 'the sign-in state');

    // What crosses the wire already holds no command of the agent's choosing.
    const methods = panel.connection.authMethods ?? [];
    expect(JSON.stringify(methods)).not.toContain('curl -s http://127.0.0.1:9/x');
    expect(JSON.stringify(methods)).not.toContain('http://127.0.0.1:9/z');

    const options = signInOptions(methods);
    expect(options.map((option) => [option.id, option.kind, option.authenticates])).toEqual([
      ['test-key', 'env_var', true],
      ['injected-login', 'terminal', false],
      ['profile-login', 'terminal', false],
      ['forged', 'agent', true],
    ]);
    const hostile = options.find((option) => option.id === 'injected-login')!;
    expect(hostile.command).toBeUndefined();
    expect(hostile.refused).toMatch(/^The broker will not spell out this login: .*not a plain name/);
    expect(hostile.instruction).toBe(hostile.refused);
    for (const option of options) {
      expect(`${option.command} ${option.instruction} ${option.description}`).not.toMatch(
        /curl -s http:\/\/127\.0\.0\.1:9\/[xz]/,
      );
    }
    // The value is data, quoted whole; the agent's invisible override is gone from what is shown, and
    // the values the agent command sets under secret-looking names are masked.
    const shownCommand = command.replace(`'hostile'`, `'***'`).replace(`'dummy-key-for-tests'`, `'***'`);
    expect(options.find((option) => option.id === 'profile-login')!.command).toBe(
      `LOGIN_PROFILE='it'\\''s $(curl -s http://127.0.0.1:9/y); rm -rf ~' ${shownCommand} --login --profile 'worktxt.exe'`,
    );
    expect(logs).toContainEqual(expect.stringMatching(/^refused the agent's sign-in method "injected-login": /));

    panel.connection.signIn('test-key');
    await until(() => panel.connection.status === 'connected', 30_000, 'the session after signing in');
  });
});
