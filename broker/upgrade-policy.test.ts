import { describe, expect, it } from 'vitest';
import { TEST_BUILD_EXTENSION_ID } from './extension-ids';
import {
  judgeHttpBearer,
  judgeMcpBearer,
  judgeRequest,
  judgeUpgrade,
  parseProtocols,
  type Admission,
} from './upgrade-policy';

const OTHER_ID = 'abcdefghijklmnopabcdefghijklmnop';
const withToken: Admission = { token: 't0k', extensionIds: new Set([TEST_BUILD_EXTENSION_ID]) };
const noToken: Admission = { ...withToken, token: undefined };
const panel = `chrome-extension://${TEST_BUILD_EXTENSION_ID}`;
const ok = { host: '127.0.0.1:8765', origin: panel, protocols: ['openab.bearer.t0k', 'acp.v1'] };

describe('judgeUpgrade', () => {
  it('admits the extension with the right token', () => {
    expect(judgeUpgrade(ok, withToken)).toEqual({ ok: true });
    expect(judgeUpgrade({ ...ok, origin: undefined }, withToken)).toEqual({ ok: true });
    expect(judgeUpgrade({ ...ok, host: 'localhost:1' }, withToken)).toEqual({ ok: true });
  });
  it('refuses a web page origin', () => {
    expect(judgeUpgrade({ ...ok, origin: 'https://evil.example' }, withToken)).toMatchObject({
      ok: false,
      status: 403,
    });
    expect(judgeUpgrade({ ...ok, origin: 'null' }, withToken)).toMatchObject({ ok: false, status: 403 });
  });
  it('refuses an extension it was not told about, even with the right token', () => {
    const other = judgeUpgrade({ ...ok, origin: `chrome-extension://${OTHER_ID}` }, withToken);
    expect(other).toMatchObject({ ok: false, status: 403 });
    expect((other as { reason: string }).reason).toContain(`--extension-id ${OTHER_ID}`);
    for (const origin of ['chrome-extension://abc', `${panel}/`, `${panel}x`, `chrome-extension://${OTHER_ID}.`]) {
      expect(judgeUpgrade({ ...ok, origin }, withToken)).toMatchObject({ ok: false, status: 403 });
    }
    expect(judgeUpgrade({ ...ok, origin: panel.toUpperCase() }, withToken)).toMatchObject({ ok: false, status: 403 });
  });
  it('tells an extension why in a close code it can read, and a program or a page over HTTP', () => {
    const other = `chrome-extension://${OTHER_ID}`;
    expect(judgeUpgrade({ ...ok, origin: other }, withToken)).toMatchObject({
      closeCode: 4403,
      closeReason: `extension not admitted: start the broker with --extension-id ${OTHER_ID}`,
    });
    expect(judgeUpgrade({ ...ok, protocols: ['openab.bearer.nope', 'acp.v1'] }, withToken)).toMatchObject({
      status: 401,
      closeCode: 4401,
      closeReason: 'wrong token',
    });
    expect(judgeUpgrade({ ...ok, protocols: ['acp.v1'] }, withToken)).toMatchObject({ closeCode: 4401 });
    expect(judgeUpgrade({ ...ok, path: '/wrong' }, withToken)).toMatchObject({ status: 404, closeCode: 4404 });
    // A wrong path is said first, even to an extension that is not admitted.
    expect(judgeUpgrade({ ...ok, origin: other, path: '/' }, withToken)).toMatchObject({ closeCode: 4404 });
    expect(judgeUpgrade({ ...ok, path: '/acp' }, withToken)).toEqual({ ok: true });
    // Whoever cannot complete the handshake, sends no extension Origin or a rebinding Host hears HTTP.
    expect(judgeUpgrade({ ...ok, origin: other, protocols: ['openab.bearer.t0k'] }, withToken)).not.toHaveProperty(
      'closeCode',
    );
    for (const facts of [
      { ...ok, origin: undefined, protocols: ['acp.v1'] },
      { ...ok, origin: undefined, path: '/wrong' },
      { ...ok, origin: 'https://evil.example', path: '/wrong' },
      { ...ok, host: 'evil.example', origin: other },
      { ...ok, host: 'evil.example', path: '/wrong' },
    ]) {
      expect(judgeUpgrade(facts, withToken)).not.toHaveProperty('closeCode');
    }
    expect(judgeUpgrade({ ...ok, host: 'evil.example', path: '/wrong' }, withToken)).toMatchObject({ status: 403 });
  });
  it('admits the extensions given with --extension-id', () => {
    const both: Admission = { ...withToken, extensionIds: new Set([TEST_BUILD_EXTENSION_ID, OTHER_ID]) };
    expect(judgeUpgrade({ ...ok, origin: `chrome-extension://${OTHER_ID}` }, both)).toEqual({ ok: true });
    expect(judgeUpgrade(ok, both)).toEqual({ ok: true });
  });
  it('refuses a rebinding Host', () => {
    expect(judgeUpgrade({ ...ok, host: 'evil.example:8765' }, withToken)).toMatchObject({ ok: false, status: 403 });
    expect(judgeUpgrade({ ...ok, host: undefined }, withToken)).toMatchObject({ ok: false, status: 403 });
  });
  it('refuses a wrong, missing or prefix-only token', () => {
    expect(judgeUpgrade({ ...ok, protocols: ['openab.bearer.nope', 'acp.v1'] }, withToken)).toMatchObject({
      status: 401,
    });
    expect(judgeUpgrade({ ...ok, protocols: ['acp.v1'] }, withToken)).toMatchObject({ status: 401 });
    expect(judgeUpgrade({ ...ok, protocols: ['openab.bearer.t0', 'acp.v1'] }, withToken)).toMatchObject({
      status: 401,
    });
    expect(judgeUpgrade({ ...ok, origin: undefined, protocols: ['acp.v1'] }, withToken)).toMatchObject({
      status: 401,
    });
  });
  it('needs acp.v1', () => {
    expect(judgeUpgrade({ ...ok, protocols: ['openab.bearer.t0k'] }, withToken)).toMatchObject({ status: 400 });
  });
  it('without a token, admits the extension alone', () => {
    expect(judgeUpgrade({ ...ok, protocols: ['acp.v1'] }, noToken)).toEqual({ ok: true });
    const client = judgeUpgrade({ ...ok, origin: undefined, protocols: ['acp.v1'] }, noToken);
    expect(client).toMatchObject({ ok: false, status: 403 });
    expect((client as { reason: string }).reason).toMatch(/without a token/);
    expect(judgeUpgrade({ ...ok, origin: '' }, noToken)).toMatchObject({ ok: false, status: 403 });
    expect(judgeUpgrade({ ...ok, origin: `chrome-extension://${OTHER_ID}` }, noToken)).toMatchObject({
      status: 403,
    });
  });
  it('parses the header', () => {
    expect(parseProtocols('a, b ,c')).toEqual(['a', 'b', 'c']);
    expect(parseProtocols(undefined)).toEqual([]);
  });
});

describe('judgeHttpBearer', () => {
  const http = { host: '127.0.0.1:8765', origin: undefined, authorization: 'Bearer t0k' };
  it('admits a program with the right bearer header', () => {
    expect(judgeHttpBearer(http, withToken)).toEqual({ ok: true });
    expect(judgeHttpBearer({ ...http, authorization: 'bearer   t0k' }, withToken)).toEqual({ ok: true });
  });
  it('refuses a wrong, missing or malformed header', () => {
    expect(judgeHttpBearer({ ...http, authorization: 'Bearer nope' }, withToken)).toMatchObject({ status: 401 });
    expect(judgeHttpBearer({ ...http, authorization: undefined }, withToken)).toMatchObject({ status: 401 });
    expect(judgeHttpBearer({ ...http, authorization: 'Basic t0k' }, withToken)).toMatchObject({ status: 401 });
    expect(judgeHttpBearer({ ...http, authorization: 'Bearer t0k extra' }, withToken)).toMatchObject({
      status: 401,
    });
  });
  it('checks Host and Origin before the token', () => {
    expect(judgeHttpBearer({ ...http, origin: 'http://evil.example' }, withToken)).toMatchObject({ status: 403 });
    expect(judgeHttpBearer({ ...http, host: 'evil.example' }, withToken)).toMatchObject({ status: 403 });
    expect(judgeHttpBearer({ ...http, origin: `chrome-extension://${OTHER_ID}` }, withToken)).toMatchObject({
      status: 403,
    });
  });
  it('is off when no token is set, whoever asks', () => {
    for (const origin of [undefined, panel]) {
      const verdict = judgeHttpBearer({ ...http, origin, authorization: undefined }, noToken);
      expect(verdict).toMatchObject({ ok: false, status: 403 });
      expect((verdict as { reason: string }).reason).toMatch(/without a token.*\/mcp is off/);
    }
  });
});

describe('judgeMcpBearer', () => {
  const http = { host: '127.0.0.1:8765', origin: undefined };
  const credentials = [
    { sessionId: 'sa', credential: 'cred-a' },
    { sessionId: 'sb', credential: 'cred-b' },
  ];
  const judge = (bearer: string, route: string, live = credentials) =>
    judgeMcpBearer({ ...http, authorization: `Bearer ${bearer}` }, withToken, route, live);

  it('lets a session’s credential open its own session’s route alone', () => {
    expect(judge('cred-b', 'sb')).toEqual({ ok: true });
    expect(judge('cred-b', 'sa')).toMatchObject({ ok: false, status: 403, reason: /another session/ });
    expect(judge('cred-b', '')).toMatchObject({ ok: false, status: 403, reason: /not \/mcp$/ });
  });
  it('refuses a credential whose session has ended, and anything else unknown, with 401', () => {
    expect(judge('cred-b', 'sb', credentials.slice(0, 1))).toMatchObject({
      status: 401,
      reason: /ends with its session/,
    });
    expect(judge('cred-', 'sb')).toMatchObject({ status: 401 });
    expect(judge('', 'sb')).toMatchObject({ status: 401 });
  });
  it('lets the broker’s token open /mcp and a session’s route', () => {
    expect(judge('t0k', '')).toEqual({ ok: true });
    expect(judge('t0k', 'sa')).toEqual({ ok: true });
  });
  it('checks Host, Origin and the broker running with a token first', () => {
    const page = { host: '127.0.0.1', origin: 'http://evil.example', authorization: 'Bearer cred-a' };
    expect(judgeMcpBearer(page, withToken, 'sa', credentials)).toMatchObject({ status: 403, reason: /Web pages/ });
    const off = judgeMcpBearer({ ...http, authorization: 'Bearer cred-a' }, noToken, 'sa', credentials);
    expect(off).toMatchObject({ status: 403, reason: /\/mcp is off/ });
  });
});

describe('judgeRequest', () => {
  it('answers a program or the admitted extension, not a page or another extension', () => {
    expect(judgeRequest({ host: 'localhost', origin: undefined }, noToken)).toEqual({ ok: true });
    expect(judgeRequest({ host: 'localhost', origin: panel }, noToken)).toEqual({ ok: true });
    expect(judgeRequest({ host: 'localhost', origin: 'http://localhost:3000' }, noToken)).toMatchObject({
      status: 403,
    });
    expect(judgeRequest({ host: 'localhost', origin: `chrome-extension://${OTHER_ID}` }, noToken)).toMatchObject({
      status: 403,
    });
  });
  it('takes the listen address as a Host name too', () => {
    const listening: Admission = { ...withToken, extraHosts: ['10.0.0.5'] };
    expect(judgeRequest({ host: '10.0.0.5:8765', origin: undefined }, listening)).toEqual({ ok: true });
    expect(judgeRequest({ host: '10.0.0.6:8765', origin: undefined }, listening)).toMatchObject({ status: 403 });
  });
});
