import { describe, expect, it } from 'vitest';
import { Blocklist, customEntry, effectiveBlocklist, parseRule, SHIPPED_BLOCKLIST } from './blocklist';
import type { BlockCategory, BlockEntry } from '../../shared/block-entry';

const entry = (id: string, ...match: string[]): BlockEntry => ({ id, name: id, category: 'custom', match });
const blockedBy = (list: Blocklist, url: string) => list.match(url)?.entry.id;

describe('the shipped blocklist', () => {
  it('has unique ids and every rule parses to a real domain, not a public suffix', () => {
    const ids = SHIPPED_BLOCKLIST.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of SHIPPED_BLOCKLIST) {
      for (const rule of e.match) expect(parseRule(rule), `${e.id}: ${rule}`).toMatchObject({ ok: true });
    }
    expect(new Blocklist(SHIPPED_BLOCKLIST).problems).toEqual([]);
  });

  it('covers every category the spec names', () => {
    const categories = new Set(SHIPPED_BLOCKLIST.map((e) => e.category));
    const wanted: BlockCategory[] = [
      'banking',
      'payments',
      'cloud-console',
      'password-manager',
      'identity',
      'account-settings',
    ];
    for (const category of wanted) expect(categories, category).toContain(category);
  });

  it.each([
    ['https://www.paypal.com/myaccount/summary', 'paypal'],
    ['https://console.aws.amazon.com/ec2/home', 'aws-console'],
    ['https://us-east-1.console.aws.amazon.com/s3', 'aws-console'],
    ['https://github.com/settings/tokens', 'github-settings'],
    ['https://accounts.google.com/signin', 'google-sign-in'],
    ['https://myaccount.google.com/security', 'google-account'],
    ['https://acme.okta.com/app/UserHome', 'okta'],
    ['https://vault.bitwarden.com/#/vault', 'bitwarden'],
    ['https://acme.slack.com/admin/settings', 'slack-admin'],
  ])('blocks %s (%s)', (url, id) => {
    expect(blockedBy(new Blocklist(SHIPPED_BLOCKLIST), url)).toBe(id);
  });

  it.each([
    'https://www.amazon.com/dp/B000000',
    'https://aws.amazon.com/ec2/pricing',
    'https://github.com/torvalds/linux',
    'https://github.com/settingsfoo',
    'https://docs.stripe.com/api',
    'https://www.google.com/search?q=paypal.com',
    'https://acme.slack.com/archives/C123',
  ])('leaves %s alone', (url) => {
    expect(blockedBy(new Blocklist(SHIPPED_BLOCKLIST), url)).toBeUndefined();
  });
});

describe('matching by registrable domain', () => {
  const list = new Blocklist([
    entry('bank', 'bank.example.com'),
    entry('console', 'console.cloud.example'),
    entry('uk', 'bank.co.uk'),
    entry('pages', 'mysite.github.io'),
  ]);

  it('covers the domain and all of its subdomains', () => {
    expect(blockedBy(list, 'https://bank.example.com/')).toBe('bank');
    expect(blockedBy(list, 'https://login.bank.example.com/x')).toBe('bank');
    expect(blockedBy(list, 'https://a.b.c.bank.example.com/')).toBe('bank');
  });

  it('covers a deeper host and below it, not its siblings or parent', () => {
    expect(blockedBy(list, 'https://console.cloud.example/')).toBe('console');
    expect(blockedBy(list, 'https://eu.console.cloud.example/')).toBe('console');
    expect(blockedBy(list, 'https://cloud.example/')).toBeUndefined();
    expect(blockedBy(list, 'https://docs.cloud.example/')).toBeUndefined();
  });

  it('understands multi-part public suffixes', () => {
    expect(blockedBy(list, 'https://online.bank.co.uk/')).toBe('uk');
    expect(blockedBy(list, 'https://otherbank.co.uk/')).toBeUndefined();
    expect(blockedBy(list, 'https://co.uk/')).toBeUndefined();
  });

  it('treats private suffixes (github.io) as separate sites', () => {
    expect(blockedBy(list, 'https://mysite.github.io/app')).toBe('pages');
    expect(blockedBy(list, 'https://othersite.github.io/')).toBeUndefined();
  });

  it('refuses rules that are public suffixes', () => {
    for (const rule of ['co.uk', 'com', 'github.io', '*.co.uk']) {
      const parsed = parseRule(rule);
      expect(parsed.ok, rule).toBe(false);
    }
    expect(parseRule('localhost')).toMatchObject({ ok: true });
  });
});

describe('look-alikes are not the real site', () => {
  const list = new Blocklist([entry('paypal', 'paypal.com')]);
  it.each([
    'https://paypal.com.evil.example/',
    'https://evilpaypal.com/',
    'https://paypal-com.example/',
    'https://paypa1.com/',
    'https://xn--pypal-4ve.com/', // Cyrillic "а"
    'https://evil.example/paypal.com/',
    'https://evil.example/?next=https://paypal.com',
  ])('%s does not match paypal.com', (url) => {
    expect(blockedBy(list, url)).toBeUndefined();
  });

  it('still catches the real host written oddly', () => {
    for (const url of [
      'https://PAYPAL.COM/',
      'https://paypal.com./',
      'https://www.paypal.com.:443/',
      'https://user:pw@paypal.com/',
    ]) {
      expect(blockedBy(list, url), url).toBe('paypal');
    }
  });
});

describe('paths', () => {
  const list = new Blocklist([entry('settings', 'example.com/settings'), entry('ap', 'shop.example/ap/')]);
  it('match the path and below it, on a segment boundary', () => {
    expect(blockedBy(list, 'https://example.com/settings')).toBe('settings');
    expect(blockedBy(list, 'https://example.com/settings/')).toBe('settings');
    expect(blockedBy(list, 'https://example.com/settings/keys?x=1')).toBe('settings');
    expect(blockedBy(list, 'https://www.example.com/settings/keys')).toBe('settings');
    expect(blockedBy(list, 'https://example.com/settingsx')).toBeUndefined();
    expect(blockedBy(list, 'https://example.com/')).toBeUndefined();
    expect(blockedBy(list, 'https://example.com/user/settings')).toBeUndefined();
    expect(blockedBy(list, 'https://shop.example/ap/signin')).toBe('ap');
  });

  it('see through case, escapes, doubled slashes and dot segments', () => {
    for (const url of [
      'https://example.com/Settings',
      'https://example.com/%73ettings',
      'https://example.com//settings',
      'https://example.com/a/../settings/x',
      'https://example.com/settings#top',
    ]) {
      expect(blockedBy(list, url), url).toBe('settings');
    }
  });
});

describe('IDN, ports, schemes and addresses', () => {
  it('matches internationalised domains written either way', () => {
    const unicode = new Blocklist([entry('idn', 'bücher.example')]);
    const puny = new Blocklist([entry('idn', 'xn--bcher-kva.example')]);
    for (const list of [unicode, puny]) {
      expect(blockedBy(list, 'https://bücher.example/')).toBe('idn');
      expect(blockedBy(list, 'https://www.xn--bcher-kva.example/')).toBe('idn');
      expect(blockedBy(list, 'https://bucher.example/')).toBeUndefined();
    }
  });

  it('ignores ports and the http/https difference', () => {
    const list = new Blocklist([entry('bank', 'bank.example'), entry('local', '127.0.0.1')]);
    expect(blockedBy(list, 'http://bank.example:8080/')).toBe('bank');
    expect(blockedBy(list, 'https://bank.example:8443/')).toBe('bank');
    expect(blockedBy(list, 'http://127.0.0.1:4321/page')).toBe('local');
    expect(blockedBy(list, 'http://127.0.0.2/')).toBeUndefined();
    expect(blockedBy(list, 'http://localhost:4321/')).toBeUndefined();
  });

  it('never matches non-web URLs (the origin gate refuses those on its own)', () => {
    const list = new Blocklist([entry('bank', 'bank.example')]);
    expect(blockedBy(list, 'ftp://bank.example/')).toBeUndefined();
    expect(blockedBy(list, 'not a url')).toBeUndefined();
  });

  it('accepts rules pasted as URLs', () => {
    expect(parseRule('https://Bank.Example:8443/Settings/?q#x')).toEqual({
      ok: true,
      rule: { host: 'bank.example', path: '/settings', key: 'bank.example' },
    });
  });
});

describe('user changes', () => {
  it('removes shipped entries by id and adds custom ones', () => {
    const custom = customEntry('127.0.0.1', new Set()) as BlockEntry;
    expect(custom).toMatchObject({ id: 'custom:127.0.0.1', category: 'custom', match: ['127.0.0.1'] });
    const entries = effectiveBlocklist({ removed: ['paypal'], custom: [custom] });
    const list = new Blocklist(entries);
    expect(blockedBy(list, 'https://paypal.com/')).toBeUndefined();
    expect(blockedBy(list, 'https://venmo.com/')).toBe('venmo');
    expect(blockedBy(list, 'http://127.0.0.1:9/')).toBe('custom:127.0.0.1');
  });

  it('says why a custom rule is unusable', () => {
    expect(customEntry('co.uk', new Set())).toMatch(/public suffix/);
    expect(customEntry('  ', new Set())).toMatch(/Enter a domain/);
    expect(customEntry('http://[bad', new Set())).toMatch(/not a domain/);
  });

  it('keeps ids unique', () => {
    const first = customEntry('bank.example', new Set()) as BlockEntry;
    const second = customEntry('bank.example', new Set([first.id])) as BlockEntry;
    expect(second.id).not.toBe(first.id);
  });
});
