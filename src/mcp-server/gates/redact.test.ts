import { describe, expect, it } from 'vitest';
import { neutraliseText } from '../../shared/text/line';
import { wrapUntrusted } from '../../shared/text/wrappers';
import { MASK, boundForAudit, isSecretKey, redactArgs, scrubResult, secretValuesIn } from './redact';

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

  it('masks keys whose words name a secret, and leaves words that merely contain one', () => {
    const secret = [
      'password',
      'Password',
      'passwd',
      'pass',
      'user_pass',
      'pwd',
      'newPassword',
      'password2',
      'passphrase',
      'secret',
      'clientSecret',
      'token',
      'x-auth-token',
      'accessToken',
      'csrftoken',
      'api_key',
      'apiKey',
      'APIKey',
      'X-Api-Key',
      'apikey',
      'auth',
      'Authorization',
      'credential',
      'aws_credentials',
      'private_key',
      'privateKey',
      'cookie',
      'Set-Cookie',
      'session_id',
      'sessionId',
      'SESSIONID',
      'otp',
      'pin',
      'cvv',
      'card_number',
    ];
    const plain = [
      'author',
      'authorName',
      'passage',
      'bypass_review',
      'compass',
      'passenger',
      'spinner',
      'pinned',
      'keyword',
      'session',
      'note',
      'id',
      'tokenizer_name',
      'authored_by',
    ];
    for (const key of secret) expect(isSecretKey(key), key).toBe(true);
    for (const key of plain) expect(isSecretKey(key), key).toBe(false);
    // A destructive connector tool's arguments stay readable on the card that asks the user.
    expect(
      redactArgs({ author: 'alice', passage: 'Chapter 1', bypass_review: false, compass: 'N', password: 'x' }),
    ).toEqual({
      author: 'alice',
      passage: 'Chapter 1',
      bypass_review: false,
      compass: 'N',
      password: MASK,
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

  it('masks a marked secret with quotes and brackets however page text was neutralised or escaped', () => {
    const secret = 'p"a<s>s]';
    const snapshotLine = `- textbox "Note" [value="${neutraliseText(`my ${secret} here`)}"]`;
    const markup = '<p>p"a&lt;s&gt;s]</p><input value="p&quot;a&lt;s&gt;s]"><input value="p&quot;a<s>s]">';
    const result = {
      content: [
        { type: 'text' as const, text: wrapUntrusted('http://app.test', snapshotLine) },
        { type: 'text' as const, text: wrapUntrusted('http://app.test', markup) },
        { type: 'text' as const, text: JSON.stringify({ note: secret }) },
      ],
      structuredContent: { note: `raw ${secret}`, shown: neutraliseText(secret) },
    };
    expect(snapshotLine).not.toContain(secret);
    const scrubbed = scrubResult(result, [secret]);
    const everything = JSON.stringify(scrubbed);
    for (const form of ['p"a', 'p\u201da', 'p&quot;a', 'a<s>s', 'a&lt;s&gt;s', 's\u27e7', 's]']) {
      expect(everything, form).not.toContain(form);
    }
    expect(scrubbed.content[0]).toEqual({
      type: 'text',
      text: wrapUntrusted('http://app.test', `- textbox "Note" [value="my ${MASK} here"]`),
    });
    expect(scrubbed.content[1]).toEqual({
      type: 'text',
      text: wrapUntrusted('http://app.test', `<p>${MASK}</p><input value="${MASK}"><input value="${MASK}">`),
    });
    expect(scrubbed.structuredContent).toEqual({ note: `raw ${MASK}`, shown: MASK });
  });

  it('bounds long strings and arrays for the audit log', () => {
    const bounded = boundForAudit({ text: 'x'.repeat(2_500), list: Array.from({ length: 250 }, (_, i) => i) });
    expect(bounded.text).toBe(`${'x'.repeat(2_000)}… [500 more characters]`);
    expect(bounded.list).toHaveLength(201);
    expect((bounded.list as unknown[])[200]).toBe('… [50 more items]');
  });
});
