import { describe, expect, it } from 'vitest';
import { commandAssignments, maskDeep, maskValues, secretMask } from './secret-mask';

describe('the secret mask', () => {
  it('masks the token, secret environment values and the usual key shapes', () => {
    const mask = secretMask((text) => text.split('tok3n-value').join('***'), {
      CODEX_API_KEY: 'abc-very-secret-value',
      HOME: '/root',
      GEMINI_API_KEY: 'short',
    });
    expect(mask('Authorization: Bearer tok3n-value')).toBe('Authorization: Bearer ***');
    expect(mask('using abc-very-secret-value now')).toBe('using *** now');
    expect(mask('key sk-ant-api03-abcdefghijklmnop refused')).toBe('key sk-*** refused');
    expect(mask('OPENAI_API_KEY=zzzzzzzz and password: hunter22')).toBe('OPENAI_API_KEY=*** and password: ***');
    expect(mask("ANTHROPIC_API_KEY='sk-ant-xyz' claude")).toBe("ANTHROPIC_API_KEY='***' claude");
    expect(mask('home is /root')).toBe('home is /root');
    expect(mask('a short value')).toBe('a short value');
  });
});

describe('the variables an agent command sets', () => {
  it('are read from its leading assignments, quoted or not, and their secrets masked', () => {
    const command = `OPENAI_API_KEY='opnk 4Qz7 Lm2V' MODE=fast GH_TOKEN="gh\\"x-123456" DEBUG=1 npx codex-acp KEY=late-value`;
    expect(commandAssignments(command)).toEqual({
      OPENAI_API_KEY: 'opnk 4Qz7 Lm2V',
      MODE: 'fast',
      GH_TOKEN: 'gh"x-123456',
      DEBUG: '1',
    });
    const mask = secretMask((text) => text, {}, command);
    expect(mask('sent opnk 4Qz7 Lm2V and gh"x-123456, mode fast')).toBe('sent *** and ***, mode fast');
    expect(commandAssignments('npx agent')).toEqual({});
  });
});

describe('a relayed value', () => {
  it('has every string masked, keys and nested ones too, and the rest kept', () => {
    const mask = (text: string) => maskValues(text, ['s3cret-value']);
    expect(
      maskDeep(
        { message: 'x s3cret-value', n: 3, ok: true, none: null, list: [{ 's3cret-value': ['s3cret-value'] }] },
        mask,
      ),
    ).toEqual({ message: 'x ***', n: 3, ok: true, none: null, list: [{ '***': ['***'] }] });
    expect(maskDeep(undefined, mask)).toBeUndefined();
  });
});

describe('the mask’s environment', () => {
  it('is read at each use, so a key set after the broker started is masked too', () => {
    const env: NodeJS.ProcessEnv = {};
    const mask = secretMask((text) => text, env);
    expect(mask('late-key-value-1')).toBe('late-key-value-1');
    env.LATE_API_KEY = 'late-key-value-1';
    expect(mask('late-key-value-1')).toBe('***');
  });
});
