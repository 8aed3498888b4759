import { describe, expect, it } from 'vitest';
import type { RefusalNotice } from '../mcp-server/gates/types';
import { fixFor, sameFix, siteLabel, type FixFacts } from './gate-fixes';

const notice = (fields: Partial<RefusalNotice>): RefusalNotice => ({
  callerId: 'a1',
  callerLabel: 'Demo',
  server: 'tabwright',
  tool: 'click',
  gate: 'act-mode',
  ...fields,
});

const facts = (overrides: Partial<FixFacts> = {}): FixFacts => ({
  blockedBy: (url) => (/paypal\.com|\/settings/.test(url) ? 'PayPal' : undefined),
  shareable: (callerId) => (callerId === 'a1' ? 'Demo' : undefined),
  ...overrides,
});

describe('the fix for a refused call', () => {
  it('turns act mode on for a refusal at the act-mode gate', () => {
    expect(fixFor(notice({ gate: 'act-mode' }), facts())).toEqual({ kind: 'act-mode' });
  });

  it('allows the refused origin, the real one with its port', () => {
    const fix = fixFor(notice({ gate: 'origin', url: 'http://127.0.0.1:8090/shop/cart?x=1' }), facts());
    expect(fix).toEqual({ kind: 'allow-site', origin: 'http://127.0.0.1:8090' });
    expect(siteLabel('http://127.0.0.1:8090')).toBe('127.0.0.1:8090');
    expect(siteLabel('https://shop.example')).toBe('shop.example');
  });

  it('offers nothing for a blocklisted page, nor a site whose front page is blocklisted', () => {
    expect(fixFor(notice({ gate: 'origin', url: 'https://www.paypal.com/pay' }), facts())).toBeUndefined();
    expect(fixFor(notice({ gate: 'origin', url: 'https://github.com/settings/keys' }), facts())).toBeUndefined();
    // Only the blocked path is blocked: allowing the rest of the site is a fix.
    expect(fixFor(notice({ gate: 'origin', url: 'https://github.com/a/b' }), facts())).toEqual({
      kind: 'allow-site',
      origin: 'https://github.com',
    });
  });

  it('offers nothing for a page that is not http(s)', () => {
    expect(fixFor(notice({ gate: 'origin', url: 'chrome://settings' }), facts())).toBeUndefined();
    expect(fixFor(notice({ gate: 'origin' }), facts())).toBeUndefined();
  });

  it('shares the tab in front with a caller that can be given it, and only then', () => {
    expect(fixFor(notice({ gate: 'target' }), facts())).toEqual({
      kind: 'share-tab',
      callerId: 'a1',
      callerName: 'Demo',
    });
    expect(fixFor(notice({ gate: 'target', callerId: 'a2' }), facts())).toBeUndefined();
  });

  it('never offers a setting that is locked', () => {
    const locked = facts({ locked: () => true });
    expect(fixFor(notice({ gate: 'act-mode' }), locked)).toBeUndefined();
    expect(fixFor(notice({ gate: 'origin', url: 'https://shop.example/' }), locked)).toBeUndefined();
    expect(fixFor(notice({ gate: 'target' }), locked)).toBeUndefined();
    const actModeLocked = facts({ locked: (setting) => setting === 'actMode' });
    expect(fixFor(notice({ gate: 'origin', url: 'https://shop.example/' }), actModeLocked)).toBeDefined();
  });

  it("never offers a site the organisation's policy keeps out", () => {
    const policy = facts({ policyAllows: (origin) => origin === 'https://shop.example' });
    expect(fixFor(notice({ gate: 'origin', url: 'https://other.example/' }), policy)).toBeUndefined();
    expect(fixFor(notice({ gate: 'origin', url: 'https://shop.example/' }), policy)).toEqual({
      kind: 'allow-site',
      origin: 'https://shop.example',
    });
  });

  it('offers nothing for gates the person cannot fix from a card', () => {
    for (const gate of ['kill-switch', 'exposure', 'confirmation', 'arguments', 'screenshots'] as const) {
      expect(fixFor(notice({ gate }), facts())).toBeUndefined();
    }
  });

  it('tells two identical fixes apart from different ones', () => {
    expect(sameFix({ kind: 'act-mode' }, { kind: 'act-mode' })).toBe(true);
    expect(
      sameFix({ kind: 'allow-site', origin: 'https://a.example' }, { kind: 'allow-site', origin: 'https://b.example' }),
    ).toBe(false);
  });
});
