import { describe, expect, it } from 'vitest';
import { createConnectorContext } from './context';
import { FakeTabPort, type FakeSite } from './fake-tab-port';
import { AuthExpiredError, ConnectorError, type SignedOutSigns } from './sdk';

const SITE = 'http://app.test/base/';
const AUTH: SignedOutSigns = { loginPath: '/login', loginSelector: 'form#login', signInPath: 'login' };

function contextFor(site: FakeSite, auth: SignedOutSigns | undefined = AUTH) {
  const port = new FakeTabPort(site);
  const log: string[] = [];
  const ctx = createConnectorContext({
    connectorId: 'demo',
    connectorName: 'Demo App',
    site: SITE,
    auth,
    port,
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
});
