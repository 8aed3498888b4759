import { describe, expect, it } from 'vitest';
import { MASK, boundForAudit, redactArgs, scrubResult, secretValuesIn } from './redact';

describe('redaction', () => {
  const args = {
    fields: [
      { ref: 'e1', value: 'alice' },
      { selector: '#pw', value: 'correct horse' },
      { ref: 'f3e9', value: '123456' },
    ],
    submit: true,
  };

  it('masks values aimed at password fields, by ref or selector, and nothing else', () => {
    const secret = new Set(['#pw', 'f3e9']);
    expect(redactArgs(args, { targets: secret })).toEqual({
      fields: [
        { ref: 'e1', value: 'alice' },
        { selector: '#pw', value: MASK },
        { ref: 'f3e9', value: MASK },
      ],
      submit: true,
    });
    expect(secretValuesIn(args, secret)).toEqual(['correct horse', '123456']);
  });

  it('masks secret-looking keys at any depth', () => {
    expect(redactArgs({ headers: { Authorization: 'Bearer x' }, apiKey: 'k', api_key: 'k', note: 'ok' })).toEqual({
      headers: { Authorization: MASK },
      apiKey: MASK,
      api_key: MASK,
      note: 'ok',
    });
  });

  it('masks user-marked values inside longer strings', () => {
    expect(redactArgs({ text: 'send to 4111-1111 today' }, { values: ['4111-1111'] })).toEqual({
      text: `send to ${MASK} today`,
    });
  });

  it('scrubs results, structured content included, but leaves short values alone', () => {
    const result = {
      content: [
        { type: 'text' as const, text: 'Typed "correct horse" into Password' },
        { type: 'image' as const, data: 'abc', mimeType: 'image/jpeg' },
      ],
      structuredContent: { typed: ['correct horse'], nested: { v: 'correct horse!' } },
    };
    const scrubbed = scrubResult(result, ['correct horse', 'ab']);
    expect(scrubbed.content[0]).toEqual({ type: 'text', text: `Typed "${MASK}" into Password` });
    expect(scrubbed.content[1]).toEqual(result.content[1]);
    expect(scrubbed.structuredContent).toEqual({ typed: [MASK], nested: { v: `${MASK}!` } });
    expect(scrubResult(result, [])).toBe(result);
  });

  it('bounds long strings and arrays for the audit log', () => {
    const bounded = boundForAudit({ text: 'x'.repeat(2_500), list: Array.from({ length: 250 }, (_, i) => i) });
    expect(bounded.text).toBe(`${'x'.repeat(2_000)}… [500 more characters]`);
    expect(bounded.list).toHaveLength(201);
    expect((bounded.list as unknown[])[200]).toBe('… [50 more items]');
  });
});
