import { describe, expect, it } from 'vitest';
import { Blocklist, customEntry } from '../mcp-server/gates/blocklist';
import { createGateEnvironment } from '../mcp-server/gates/environment';
import { createConnectorContext } from './context';
import { FakeTabPort, type FakeSite } from './fake-tab-port';
import { AuthExpiredError, ConnectorError, type SignedOutSigns } from './sdk';

const SITE = 'http://app.test/base/';
const AUTH: SignedOutSigns = { loginPath: '/login', loginSelector: 'form#login', signInPath: 'login' };

/** The gates as the panel assembles them: app.test allowed and granted, its /base/private blocked by the user. */
const gates = createGateEnvironment({
  killed: () => false,
  actMode: () => false,
  allowedSites: () => ['http://app.test'],
  screenshots: () => false,
  blocklist: () => new Blocklist([customEntry('app.test/base/private', new Set()) as never]),
  hasHostPermission: async () => true,
  hasAllUrls: async () => false,
  secretValues: () => [],
  confirm: async () => 'deny',
  audit: () => undefined,
});

function contextFor(site: FakeSite, auth: SignedOutSigns | undefined = AUTH) {
  const port = new FakeTabPort(site);
  const log: string[] = [];
  const ctx = createConnectorContext({
    connectorId: 'demo',
    connectorName: 'Demo App',
    site: SITE,
    auth,
    port,
    urlRefusal: (url) => gates.originRefusal(url),
    signal: new AbortController().signal,
    log: (message) => log.push(message),
    timeoutMs: 200,
  });
  return { ctx, port, log };
}

const list = '<table><tr class="row"><td class="t">One</td></tr><tr class="row"><td class="t">Two</td></tr></table>';

describe('the connector context', () => {
  it('opens its own tab on the site once, navigates under the base path and extracts', async () => {
    const { ctx, port, log } = contextFor({ pages: { '/base/': '<p>home</p>', '/base/items?x=1': list } });
    await ctx.navigate('/items?x=1', { waitFor: 'tr.row' });
    expect(await ctx.extractRows('tr.row', { title: 'td.t' })).toEqual([{ title: 'One' }, { title: 'Two' }]);
    expect(await ctx.extractFields({ first: 'td.t', count: { selector: 'tr', all: true } })).toEqual({
      first: 'One',
      count: ['One', 'Two'],
    });
    await ctx.navigate('items?x=1');
    expect(port.opened).toEqual(['demo http://app.test/base/']);
    expect(port.visited).toEqual([
      'http://app.test/base/',
      'http://app.test/base/items?x=1',
      'http://app.test/base/items?x=1',
    ]);
    expect(log).toEqual(['navigate /base/items?x=1', 'navigate /base/items?x=1']);
    expect(await ctx.url()).toBe('http://app.test/base/items?x=1');
  });

  it('never leaves its site', async () => {
    const { ctx, port } = contextFor({ pages: {} });
    await expect(ctx.navigate('https://elsewhere.test/')).rejects.toThrow(ConnectorError);
    await expect(ctx.fetch('https://elsewhere.test/api')).rejects.toThrow('only fetch from their site');
    expect(port.visited).toEqual([]);
  });

  it('turns a redirect to the sign-in page into AuthExpiredError naming where to sign in', async () => {
    const { ctx } = contextFor({
      pages: { '/base/': 'redirect:/base/login?g=x', '/base/login?g=x': '<form id="login"></form>' },
    });
    const error = await ctx.navigate('').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthExpiredError);
    expect((error as Error).message).toBe(
      'You are signed out of Demo App. Ask the user to sign in to Demo App at http://app.test/base/login, then call the tool again.',
    );
  });

  it('also when the sign-in form shows in place, or single sign-on takes the tab elsewhere', async () => {
    const inPlace = contextFor({ pages: { '/base/': '<p>x</p>', '/base/page': '<form id="login"></form>' } });
    await expect(inPlace.ctx.navigate('page')).rejects.toBeInstanceOf(AuthExpiredError);
    const sso = contextFor({ pages: { '/base/': 'redirect:https://sso.test/auth' } }, undefined);
    await expect(sso.ctx.navigate('')).rejects.toBeInstanceOf(AuthExpiredError);
  });

  it('a selector that never shows is a ConnectorError, unless the page is the sign-in page', async () => {
    const { ctx } = contextFor({ pages: { '/base/': '<p>home</p>' } });
    await expect(ctx.navigate('', { waitFor: '.never' })).rejects.toThrow('Did not find .never on Demo App');
  });

  it('fetches same-origin with the page’s form, and reads 401 or a login redirect as signed out', async () => {
    const { ctx, port } = contextFor({
      pages: { '/base/': '<p>home</p>' },
      fetches: {
        '/base/ok': { status: 200, text: 'fine' },
        '/base/gone': { status: 401 },
        '/base/bounced': { status: 200, url: 'http://app.test/base/login' },
      },
    });
    const response = await ctx.fetch('ok', { method: 'POST', form: { a: '1' } });
    expect(response).toMatchObject({ status: 200, text: 'fine', truncated: false });
    expect(port.fetched[0]).toEqual({ url: 'http://app.test/base/ok', method: 'POST', form: { a: '1' } });
    await expect(ctx.fetch('gone')).rejects.toBeInstanceOf(AuthExpiredError);
    await expect(ctx.fetch('bounced')).rejects.toBeInstanceOf(AuthExpiredError);
  });

  it('evaluate runs a self-contained function with JSON arguments', async () => {
    const { ctx } = contextFor({ pages: { '/base/': '<p id="x">home</p>' } });
    const read = (id: string, suffix: string) => `${document.getElementById(id)?.textContent}${suffix}`;
    expect(await ctx.evaluate(read, 'x', '!')).toBe('home!');
  });

  describe('every URL meets the gates, not only the site', () => {
    const BLOCKED =
      /Demo App .* http:\/\/app\.test\/base\/private\/?\S*, which Tabwright may not read\. Refused: .*high-risk blocklist \(app\.test\/base\/private\)/;
    const secretPage = '<table><tr class="row"><td class="t">Salary 9000</td></tr></table>';

    it('refuses to navigate to a blocked path, before the tab goes there', async () => {
      const { ctx, port } = contextFor({ pages: { '/base/': '<p>home</p>', '/base/private/pay': secretPage } });
      await expect(ctx.navigate('private/pay')).rejects.toThrow(BLOCKED);
      expect(port.visited).toEqual([]);
      // Percent-escapes and case do not get around it.
      await expect(ctx.navigate('%50rivate/pay')).rejects.toThrow(/high-risk blocklist \(app\.test\/base\/private\)/);
      await expect(ctx.navigate('PRIVATE//pay')).rejects.toThrow(/high-risk blocklist \(app\.test\/base\/private\)/);
      expect(port.visited).toEqual([]);
    });

    it('refuses a page a redirect landed on, and reads nothing from it', async () => {
      const { ctx } = contextFor({
        pages: { '/base/': '<p>home</p>', '/base/go': 'redirect:/base/private/pay', '/base/private/pay': secretPage },
      });
      const error = await ctx.navigate('go', { waitFor: 'tr.row' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as Error).message).toMatch(BLOCKED);
      expect((error as Error).message).toContain('landed on');
      expect((error as Error).message).not.toContain('Salary');
      await expect(ctx.extractRows('tr.row', { t: 'td.t' })).rejects.toThrow(BLOCKED);
      await expect(ctx.extractFields({ t: 'td.t' })).rejects.toThrow(BLOCKED);
      await expect(ctx.evaluate(() => document.body.textContent)).rejects.toThrow(BLOCKED);
      await expect(ctx.url()).rejects.toThrow(BLOCKED);
    });

    it('refuses once the page moved itself to a blocked route, seen when a wait or an extract finishes', async () => {
      const { ctx, port } = contextFor({ pages: { '/base/': '<p>home</p>', '/base/app': secretPage } });
      await ctx.navigate('app', { waitFor: 'tr.row' });
      expect(await ctx.extractFields({ t: 'td.t' })).toEqual({ t: 'Salary 9000' });
      port.pushState('/base/private/pay');
      await expect(ctx.waitFor('tr.row')).rejects.toThrow(/moved to http:\/\/app\.test\/base\/private\/pay/);
      await expect(ctx.extractRows('tr.row', { t: 'td.t' })).rejects.toThrow(BLOCKED);
      await expect(ctx.extractFields({ t: 'td.t' })).rejects.toThrow(BLOCKED);
      port.pushState('/base/app');
      expect(await ctx.extractFields({ t: 'td.t' })).toEqual({ t: 'Salary 9000' });
    });

    it('withholds a wait that ended on a route the page moved to meanwhile', async () => {
      const { ctx, port } = contextFor({ pages: { '/base/': '<p>home</p>', '/base/app': '<p>Loading</p>' } });
      await ctx.navigate('app');
      const waiting = ctx.waitFor('tr.row', { timeoutMs: 2_000 });
      setTimeout(() => {
        port.pushState('/base/private/pay');
        port.document.body.innerHTML = secretPage;
      }, 30);
      const error = await waiting.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConnectorError);
      expect((error as Error).message).toMatch(BLOCKED);
      expect((error as Error).message).toContain('moved to http://app.test/base/private/pay');
    });

    it('reads nothing from a tab sent to another origin in the middle of a call', async () => {
      const { ctx, port } = contextFor({
        pages: { '/base/': '<p>home</p>', '/base/app': '<p>Loading</p>', '/pay': secretPage },
      });
      await ctx.navigate('app');
      const waiting = ctx.waitFor('tr.row', { timeoutMs: 300 });
      // The page sends its own tab elsewhere while the connector waits.
      setTimeout(() => void port.navigate(1, 'http://other.test/pay'), 30);
      const gone = await waiting.catch((e: unknown) => e);
      expect(gone).toBeInstanceOf(ConnectorError);
      expect((gone as Error).message).not.toContain('Salary');
      const sent = port.commands.length;
      const refusal = /Demo App is on http:\/\/other\.test\/pay, which Tabwright may not read\. Refused/;
      await expect(ctx.extractRows('tr.row', { t: 'td.t' })).rejects.toThrow(refusal);
      await expect(ctx.extractFields({ t: 'td.t' })).rejects.toThrow(refusal);
      await expect(ctx.url()).rejects.toThrow(refusal);
      const mark = () => document.documentElement.setAttribute('data-ran', '');
      await expect(ctx.evaluate(mark)).rejects.toThrow(refusal);
      // Refused before anything was sent to that document, or run in it.
      expect(port.commands.length).toBe(sent);
      expect(port.document.documentElement.hasAttribute('data-ran')).toBe(false);
    });

    it('refuses to fetch a blocked path, and a fetch that was redirected to one', async () => {
      const { ctx, port } = contextFor({
        pages: { '/base/': '<p>home</p>' },
        fetches: {
          '/base/private/pay': { status: 200, text: 'Salary 9000' },
          '/base/export': { status: 200, url: 'http://app.test/base/private/pay', text: 'Salary 9000' },
        },
      });
      await expect(ctx.fetch('private/pay')).rejects.toThrow(BLOCKED);
      expect(port.fetched).toEqual([]);
      const error = await ctx.fetch('export').catch((e: unknown) => e);
      expect((error as Error).message).toMatch(BLOCKED);
      expect((error as Error).message).toContain('was redirected to');
      expect((error as Error).message).not.toContain('Salary');
    });
  });
});
