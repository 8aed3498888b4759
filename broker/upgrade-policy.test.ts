import { describe, expect, it } from 'vitest';
import { judgeHttpBearer, judgeUpgrade, parseProtocols } from './upgrade-policy';

const ok = { host: '127.0.0.1:8765', origin: 'chrome-extension://abc', protocols: ['openab.bearer.t0k', 'acp.v1'] };

describe('judgeUpgrade', () => {
  it('admits the extension with the right token', () => {
    expect(judgeUpgrade(ok, 't0k')).toEqual({ ok: true });
    expect(judgeUpgrade({ ...ok, origin: undefined }, 't0k')).toEqual({ ok: true });
    expect(judgeUpgrade({ ...ok, host: 'localhost:1' }, 't0k')).toEqual({ ok: true });
  });
  it('refuses a web page origin', () => {
    expect(judgeUpgrade({ ...ok, origin: 'https://evil.example' }, 't0k')).toMatchObject({ ok: false, status: 403 });
    expect(judgeUpgrade({ ...ok, origin: 'null' }, 't0k')).toMatchObject({ ok: false, status: 403 });
  });
  it('refuses a rebinding Host', () => {
    expect(judgeUpgrade({ ...ok, host: 'evil.example:8765' }, 't0k')).toMatchObject({ ok: false, status: 403 });
    expect(judgeUpgrade({ ...ok, host: undefined }, 't0k')).toMatchObject({ ok: false, status: 403 });
  });
  it('refuses a wrong, missing or prefix-only token', () => {
    expect(judgeUpgrade({ ...ok, protocols: ['openab.bearer.nope', 'acp.v1'] }, 't0k')).toMatchObject({ status: 401 });
    expect(judgeUpgrade({ ...ok, protocols: ['acp.v1'] }, 't0k')).toMatchObject({ status: 401 });
    expect(judgeUpgrade({ ...ok, protocols: ['openab.bearer.t0', 'acp.v1'] }, 't0k')).toMatchObject({ status: 401 });
  });
  it('needs acp.v1', () => {
    expect(judgeUpgrade({ ...ok, protocols: ['openab.bearer.t0k'] }, 't0k')).toMatchObject({ status: 400 });
  });
  it('needs no token when none is set', () => {
    expect(judgeUpgrade({ ...ok, protocols: ['acp.v1'] }, undefined)).toEqual({ ok: true });
  });
  it('parses the header', () => {
    expect(parseProtocols('a, b ,c')).toEqual(['a', 'b', 'c']);
    expect(parseProtocols(undefined)).toEqual([]);
  });
});

describe('judgeHttpBearer', () => {
  const http = { host: '127.0.0.1:8765', origin: undefined, authorization: 'Bearer t0k' };
  it('admits a program with the right bearer header', () => {
    expect(judgeHttpBearer(http, 't0k')).toEqual({ ok: true });
    expect(judgeHttpBearer({ ...http, authorization: 'bearer   t0k' }, 't0k')).toEqual({ ok: true });
  });
  it('refuses a wrong, missing or malformed header', () => {
    expect(judgeHttpBearer({ ...http, authorization: 'Bearer nope' }, 't0k')).toMatchObject({ status: 401 });
    expect(judgeHttpBearer({ ...http, authorization: undefined }, 't0k')).toMatchObject({ status: 401 });
    expect(judgeHttpBearer({ ...http, authorization: 'Basic t0k' }, 't0k')).toMatchObject({ status: 401 });
    expect(judgeHttpBearer({ ...http, authorization: 'Bearer t0k extra' }, 't0k')).toMatchObject({ status: 401 });
  });
  it('checks Host and Origin before the token', () => {
    expect(judgeHttpBearer({ ...http, origin: 'http://evil.example' }, 't0k')).toMatchObject({ status: 403 });
    expect(judgeHttpBearer({ ...http, host: 'evil.example' }, 't0k')).toMatchObject({ status: 403 });
  });
  it('needs no header when no token is set', () => {
    expect(judgeHttpBearer({ ...http, authorization: undefined }, undefined)).toEqual({ ok: true });
  });
});
