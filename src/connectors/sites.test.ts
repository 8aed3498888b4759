import { describe, expect, it } from 'vitest';
import { belongsTo, concreteSite, matchesPattern, normaliseConnectorSite, resolveOnSite, workingSite } from './sites';

describe('match patterns', () => {
  it('match scheme, host (with subdomains) and path; no port means any port', () => {
    expect(matchesPattern('http://127.0.0.1/*', 'http://127.0.0.1:8080/login')).toBe(true);
    expect(matchesPattern('http://127.0.0.1/*', 'https://127.0.0.1/')).toBe(false);
    expect(matchesPattern('*://*.example.com/*', 'https://tickets.example.com/a')).toBe(true);
    expect(matchesPattern('*://*.example.com/*', 'https://example.com/')).toBe(true);
    expect(matchesPattern('*://*.example.com/*', 'https://badexample.com/')).toBe(false);
    expect(matchesPattern('https://jira.example.com:8443/browse/*', 'https://jira.example.com:8443/browse/X-1')).toBe(
      true,
    );
    expect(matchesPattern('https://jira.example.com:8443/browse/*', 'https://jira.example.com/browse/X-1')).toBe(false);
    expect(matchesPattern('https://a.example/wiki/*', 'https://a.example/other')).toBe(false);
    expect(matchesPattern('not a pattern', 'https://a.example/')).toBe(false);
  });
  it('a user site extends what the connector belongs to', () => {
    expect(belongsTo('https://git.corp.example/issues', ['http://127.0.0.1/*'], ['https://git.corp.example/'])).toBe(
      true,
    );
    expect(belongsTo('https://other.example/', ['http://127.0.0.1/*'], ['https://git.corp.example/'])).toBe(false);
  });
});

describe('connector sites', () => {
  it('normalise what the user types, keeping a base path', () => {
    expect(normaliseConnectorSite('redmine.example.com')).toEqual({ site: 'https://redmine.example.com/' });
    expect(normaliseConnectorSite('http://127.0.0.1:8080/dokuwiki?x=1#y')).toEqual({
      site: 'http://127.0.0.1:8080/dokuwiki/',
    });
    expect(normaliseConnectorSite('ftp://x.example')).toEqual({ error: 'Only http and https sites can be used.' });
    expect(normaliseConnectorSite('https://me:pw@x.example')).toMatchObject({
      error: expect.stringContaining('user name'),
    });
    expect(normaliseConnectorSite('  ')).toMatchObject({ error: expect.any(String) });
  });
  it('the user’s first site wins; otherwise a pattern without wildcards names one', () => {
    expect(workingSite(['https://jira.example.com/*'], [])).toBe('https://jira.example.com/');
    expect(workingSite(['https://*.example.com/*', 'https://wiki.example.com/confluence/*'], [])).toBe(
      'https://wiki.example.com/confluence/',
    );
    expect(workingSite(['https://jira.example.com/*'], ['http://127.0.0.1:9/'])).toBe('http://127.0.0.1:9/');
    expect(workingSite(['http://*/*'], [])).toBeUndefined();
    expect(concreteSite('*://x.example/*')).toBeUndefined();
    expect(concreteSite('http://127.0.0.1/*')).toBeUndefined();
    expect(concreteSite('http://127.0.0.1:8080/*')).toBe('http://127.0.0.1:8080/');
  });
  it('paths resolve under the site’s base path and never leave the site', () => {
    expect(resolveOnSite('http://h.example/wiki/', '/doku.php?id=a').href).toBe('http://h.example/wiki/doku.php?id=a');
    expect(resolveOnSite('http://h.example/', 'issues/3').href).toBe('http://h.example/issues/3');
    expect(resolveOnSite('http://h.example/', 'http://h.example/rptview/2').href).toBe('http://h.example/rptview/2');
    expect(() => resolveOnSite('http://h.example/', 'https://evil.example/')).toThrow('not on http://h.example');
    expect(resolveOnSite('http://h.example/', '//evil.example/x').origin).toBe('http://h.example');
  });
});
