import { describe, expect, it } from 'vitest';
import { normaliseSite, originRefusal, siteOrigin } from './origin';

describe('normaliseSite', () => {
  it.each([
    ['example.com', 'https://example.com'],
    ['  https://Example.com/some/path?q#x ', 'https://example.com'],
    ['http://example.com:8080/', 'http://example.com:8080'],
    ['https://example.com:443', 'https://example.com'],
    ['bücher.example', 'https://xn--bcher-kva.example'],
    ['127.0.0.1:5173', 'http://127.0.0.1:5173'],
    ['localhost:3000/app', 'http://localhost:3000'],
  ])('%s → %s', (input, origin) => {
    expect(normaliseSite(input)).toBe(origin);
  });

  it.each([
    '',
    '   ',
    'ftp://example.com',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'chrome://settings',
    'http://',
  ])('refuses %j', (input) => {
    expect(normaliseSite(input)).toBeUndefined();
  });
});

describe('originRefusal', () => {
  const facts = { allowedSites: ['https://app.example'], chromeGranted: true, blockedBy: undefined };
  it('allows an allowed, granted, unblocked http(s) page', () => {
    expect(originRefusal('https://app.example/x', facts)).toBeUndefined();
  });
  it('refuses other schemes, whatever the lists say', () => {
    for (const url of ['chrome://settings/', 'file:///tmp/x.html', 'data:text/html,hi', 'about:blank', undefined]) {
      expect(originRefusal(url, facts), String(url)).toMatch(/only works on http\(s\)/);
    }
  });
  it('refuses a blocked site even when it is allowed and granted', () => {
    expect(originRefusal('https://app.example/x', { ...facts, blockedBy: 'PayPal' })).toMatch(/blocklist \(PayPal\)/);
  });
  it('names the path a rule covers, not the whole site, and leaves the query out', () => {
    const refusal = originRefusal('https://app.example/settings/billing?token=abc', {
      ...facts,
      blockedBy: 'App billing',
      blockedRule: 'app.example/settings',
    });
    expect(refusal).toBe(
      'Refused: https://app.example/settings/billing is under app.example/settings, on the high-risk blocklist (App billing). Tabwright never acts there; do not retry. The rest of https://app.example is not covered by this rule.',
    );
    expect(originRefusal('https://app.example/x', { ...facts, blockedBy: 'App', blockedRule: 'app.example' })).toBe(
      'Refused: https://app.example is on the high-risk blocklist (App). Tabwright never acts there; do not retry.',
    );
  });
  it('needs both the allowed list and Chrome’s grant', () => {
    expect(originRefusal('https://other.example/', facts)).toMatch(/not an allowed site/);
    expect(originRefusal('https://app.example/', { ...facts, chromeGranted: false })).toMatch(/Chrome has not granted/);
  });
  it('compares whole origins: scheme and port matter', () => {
    expect(originRefusal('http://app.example/', facts)).toMatch(/not an allowed site/);
    expect(originRefusal('https://app.example:8443/', facts)).toMatch(/not an allowed site/);
    expect(originRefusal('https://sub.app.example/', facts)).toMatch(/not an allowed site/);
    expect(siteOrigin('https://app.example:443/a')).toBe('https://app.example');
  });
});
