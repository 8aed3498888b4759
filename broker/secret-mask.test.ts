import { describe, expect, it } from 'vitest';
import { secretMask } from './secret-mask';

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
