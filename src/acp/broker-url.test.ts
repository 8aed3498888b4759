import { describe, expect, it } from 'vitest';
import { checkBrokerUrl, checkToken, httpUrlFor, isLoopbackHost, subprotocolsFor } from './broker-url';

describe('checkToken', () => {
  it('trims and accepts base64url and hex tokens', () => {
    expect(checkToken('  abc-DEF_123  ')).toEqual({ ok: true, value: 'abc-DEF_123' });
    expect(checkToken('0123456789abcdef')).toEqual({ ok: true, value: '0123456789abcdef' });
  });
  it('accepts an empty token (no bearer offered)', () => {
    expect(checkToken('   ')).toEqual({ ok: true, value: '' });
  });
  it.each(['a/b', 'abc=', 'a b', 'a:b', 'é', 'a,b', 'a"b'])('refuses %j with a reason', (token) => {
    const checked = checkToken(token);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toMatch(/subprotocol/);
  });
});

describe('checkBrokerUrl', () => {
  it('accepts ws and wss', () => {
    expect(checkBrokerUrl('ws://127.0.0.1:8765/acp')).toMatchObject({ ok: true, value: { insecureForToken: false } });
    expect(checkBrokerUrl('wss://broker.example/acp')).toMatchObject({ ok: true, value: { insecureForToken: false } });
  });
  it('flags plain ws to another machine as insecure for a token', () => {
    expect(checkBrokerUrl('ws://broker.example/acp')).toMatchObject({ ok: true, value: { insecureForToken: true } });
  });
  it.each([
    ['not a url', /full WebSocket URL/],
    ['http://127.0.0.1/acp', /ws:\/\//],
    ['ftp://x/acp', /ws:\/\/ or wss:\/\//],
    ['ws://user:pw@127.0.0.1/acp', /Token field/],
  ])('refuses %j', (url, message) => {
    const checked = checkBrokerUrl(url);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error).toMatch(message);
  });
});

describe('helpers', () => {
  it('recognises loopback hosts', () => {
    expect(isLoopbackHost('127.0.0.1')).toBe(true);
    expect(isLoopbackHost('[::1]')).toBe(true);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(isLoopbackHost('127.0.0.1.example.com')).toBe(false);
    expect(isLoopbackHost('example.com')).toBe(false);
  });
  it('offers the bearer only with a token', () => {
    expect(subprotocolsFor('t0k')).toEqual(['openab.bearer.t0k', 'acp.v1']);
    expect(subprotocolsFor('')).toEqual(['acp.v1']);
  });
  it('maps the socket URL to its HTTP address', () => {
    expect(httpUrlFor('wss://b.example/acp?x=1')).toBe('https://b.example/acp?x=1');
    expect(httpUrlFor('ws://127.0.0.1:9/acp')).toBe('http://127.0.0.1:9/acp');
  });
});
