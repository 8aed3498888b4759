// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { PageAgent } from '../agent';
import type { ExtractField } from '../protocol';
import { isSecretField } from '../secret-field';

type Spec = string | Partial<ExtractField>;

/** The fields as connectors/fields.ts sends them: a bare selector, or a pick with its defaults filled in. */
const normalise = (fields: Record<string, Spec>) =>
  Object.fromEntries(
    Object.entries(fields).map(([name, spec]) => [
      name,
      { pick: 'text', all: false, ...(typeof spec === 'string' ? { selector: spec } : spec) },
    ]),
  );

type Envelope = { ok: boolean; url: string; value?: Array<Record<string, unknown>>; error?: string; code?: string };

/** The agent's envelope without its per-document id, which says nothing about what was read. */
function rows(
  rowSelector: string | undefined,
  fields: Record<string, Spec>,
  extra: { limit?: number; within?: string } = {},
) {
  const { documentId: _documentId, ...envelope } = new PageAgent(document).handle({
    op: 'extract',
    ...(rowSelector ? { rows: rowSelector } : {}),
    fields: normalise(fields),
    ...extra,
  }) as Envelope & { documentId: string };
  return envelope;
}

/** Where jsdom's document is: every read says where it was read. */
const PAGE = 'http://localhost:3000/';

beforeEach(() => {
  document.body.innerHTML = `
    <table class="report">
      <tbody>
        <tr><td class="id"><a href="/tktview/abc123">abc123</a></td><td class="title">  Login
          rejects   long passwords </td><td class="n">1,234 hits</td></tr>
        <tr><td class="id"><a href="/tktview/def456">def456</a></td><td class="title">Timeline&nbsp;hides merges</td><td class="n">none</td></tr>
      </tbody>
    </table>
    <table class="kv">
      <tr><td class="label">Status:</td><td>Open</td><td class="label">Type:</td><td>Code_Defect</td></tr>
      <tr><td class="label">Assigned&nbsp;To:</td><td>alice</td></tr>
    </table>
    <ul id="tags"><li data-tag="a">one</li><li data-tag="b">two</li></ul>
    <input id="q" value="typed">
    <p id="multi">first line<br>second</p>`;
});

describe('the extract command', () => {
  it('reads each row: text tidied, links absolute, numbers parsed', () => {
    const result = rows('table.report tbody tr', {
      id: 'td.id',
      title: 'td.title',
      url: { selector: 'td.id', pick: 'href' },
      hits: { selector: 'td.n', pick: 'number' },
    });
    expect(result).toEqual({
      ok: true,
      url: PAGE,
      value: [
        {
          id: 'abc123',
          title: 'Login rejects long passwords',
          url: 'http://localhost:3000/tktview/abc123',
          hits: 1234,
        },
        { id: 'def456', title: 'Timeline hides merges', url: 'http://localhost:3000/tktview/def456', hits: null },
      ],
    });
  });

  it('limits rows, and reads nothing outside `within`', () => {
    expect(rows('tr', { id: 'td.id' }, { limit: 1 })).toEqual({ ok: true, value: [{ id: 'abc123' }], url: PAGE });
    const inside = rows('tr', { first: 'td' }, { within: 'table.kv' });
    expect(inside.ok && inside.value!.map((r) => r.first)).toEqual(['Status:', 'Assigned To:']);
  });

  it('reads the value beside a label, ignoring case, colons and non-breaking spaces', () => {
    expect(
      rows(undefined, {
        status: { selector: 'td.label', label: 'status' },
        type: { selector: 'td.label', label: 'Type' },
        assignee: { selector: 'td.label', label: 'Assigned To' },
        missing: { selector: 'td.label', label: 'Priority' },
      }),
    ).toEqual({
      ok: true,
      value: [{ status: 'Open', type: 'Code_Defect', assignee: 'alice', missing: null }],
      url: PAGE,
    });
  });

  it('reads attributes, form values, every match, and whether anything matched', () => {
    expect(
      rows(undefined, {
        tags: { selector: '#tags li', attribute: 'data-tag', all: true },
        words: { selector: '#tags li', all: true },
        query: { selector: '#q', pick: 'value' },
        hasTags: { selector: '#tags', pick: 'exists' },
        hasNothing: { selector: '.nothing', pick: 'exists' },
        none: { selector: '.nothing', all: true },
      }),
    ).toEqual({
      ok: true,
      url: PAGE,
      value: [{ tags: ['a', 'b'], words: ['one', 'two'], query: 'typed', hasTags: true, hasNothing: false, none: [] }],
    });
  });

  it('never reads the value of a secret field, however it is asked for', () => {
    document.body.innerHTML = `
      <input id="pw" type="password" value="hunter2">
      <input id="shown" type="text" autocomplete="current-password" value="hunter3">
      <input id="otp" autocomplete="one-time-code" value="123456">
      <input id="fresh" type="password">
      <input id="name" value="alice">`;
    (document.getElementById('fresh') as HTMLInputElement).value = 'typed-secret';
    const result = rows(undefined, {
      pw: { selector: '#pw', pick: 'value' },
      pwAttribute: { selector: '#pw', attribute: 'value' },
      pwAttributeUpper: { selector: '#pw', attribute: 'VALUE' },
      shown: { selector: '#shown', pick: 'value' },
      otp: { selector: '#otp', pick: 'value' },
      fresh: { selector: '#fresh', pick: 'value' },
      all: { selector: 'input', pick: 'value', all: true },
      name: { selector: '#name', pick: 'value' },
    });
    expect(result).toEqual({
      ok: true,
      url: PAGE,
      value: [
        {
          pw: '(hidden)',
          pwAttribute: '(hidden)',
          pwAttributeUpper: '(hidden)',
          shown: '(hidden)',
          otp: '(hidden)',
          fresh: '(hidden)',
          all: ['(hidden)', '(hidden)', '(hidden)', '(hidden)', 'alice'],
          name: 'alice',
        },
      ],
    });
  });

  it('tells secret fields by the rule snapshots use', () => {
    document.body.innerHTML = `
      <input type="password"><input type="PASSWORD"><input autocomplete="new-password">
      <input autocomplete="username one-time-code"><input autocomplete="cc-csc"><input autocomplete="cc-name">
      <input type="text"><input name="password"><textarea autocomplete="current-password"></textarea>
      <select autocomplete="cc-number"></select>`;
    const fields = Array.from(document.body.children);
    const inPage = rows(undefined, { v: { selector: 'input, textarea, select', pick: 'value', all: true } });
    const hidden = inPage.ok ? (inPage.value![0]!.v as unknown[]).map((value) => value === '(hidden)') : [];
    expect(hidden).toEqual(fields.map((field) => isSecretField(field)));
    expect(hidden.filter(Boolean)).toHaveLength(7);
  });

  it('reads the row element itself when a field has no selector', () => {
    const result = rows('#tags li', { text: {}, tag: { attribute: 'data-tag' } });
    expect(result).toEqual({
      ok: true,
      url: PAGE,
      value: [
        { text: 'one', tag: 'a' },
        { text: 'two', tag: 'b' },
      ],
    });
  });

  it('answers bad CSS with an error the model can read', () => {
    expect(rows('tr[', { id: 'td' })).toEqual({
      ok: false,
      error: 'The selector tr[ is not valid CSS.',
      code: 'bad-selector',
      url: PAGE,
    });
    expect(rows('tr', { id: 'td[' })).toMatchObject({ ok: false, code: 'bad-selector' });
  });
});

describe('the pageState command', () => {
  const signedOut = (selector?: string) =>
    (
      new PageAgent(document).handle({
        op: 'pageState',
        ...(selector ? { signedOutSelector: selector } : {}),
      }) as Envelope
    ).value as unknown as { signedOut: boolean };
  it('tells whether the sign-in form is showing', () => {
    expect(signedOut('#q').signedOut).toBe(true);
    expect(signedOut('#login').signedOut).toBe(false);
    expect(signedOut().signedOut).toBe(false);
    expect(signedOut('[').signedOut).toBe(false);
  });
});
