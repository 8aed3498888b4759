/**
 * The `ctx` a connector tool gets, built over a narrow port to the connector's own tab. Everything
 * here is pure: the port (implemented over `chrome.tabs` and `chrome.scripting` in
 * src/platform/connector-tabs.ts) opens and navigates the tab and carries page-agent commands;
 * this decides what to ask, keeps every request on the connector's site, and turns sign-in pages
 * into AuthExpiredError. Reads, waits and fetches are page-agent commands sent through the page
 * guard browser tools use, so every document they reach, and the address each reply was made
 * at (after redirects, after the page changed its own route), meets the gates' own decision
 * before anything read there is returned.
 */
import { PageCommandError, type PageTransport } from '../mcp-server/browser-port';
import { PageGuard, PageRefusal } from '../mcp-server/page-guard';
import type { PageCommand } from '../page/protocol';
import { normaliseFieldMap, type ExtractedRecord, type FieldMap } from './fields';
import { AuthExpiredError, ConnectorError, type ConnectorContext, type SignedOutSigns } from './sdk';
import { resolveOnSite } from './sites';

/** The connector's own background tab, as the SDK sees it. */
export interface ConnectorTabPort {
  /** The connector's tab, opened in the background at `url` when it has none (or it was closed). */
  acquire(connectorId: string, url: string, signal: AbortSignal): Promise<number>;
  /** Loads `url` and resolves once it finished loading (bounded); returns the final URL. */
  navigate(tabId: number, url: string, signal: AbortSignal): Promise<string>;
  /** The page agent of the tab's documents, the one browser tools use; reached only through a PageGuard. */
  readonly page: PageTransport;
  /** Runs a connector's own self-contained function (`ctx.evaluate`) in the tab's top frame. */
  evaluate<Args extends unknown[], R>(
    tabId: number,
    fn: (...args: Args) => R,
    args: Args,
    signal: AbortSignal,
  ): Promise<Awaited<R>>;
}

export interface ContextOptions {
  connectorId: string;
  connectorName: string;
  site: string;
  auth: SignedOutSigns | undefined;
  port: ConnectorTabPort;
  /** The gates' decision for one URL (allowed site, Chrome's grant, blocklist): refusal text, or nothing. */
  urlRefusal(url: string): Promise<string | undefined>;
  signal: AbortSignal;
  log(message: string): void;
  /** Default wait for selectors and loads. */
  timeoutMs?: number;
}

export const DEFAULT_WAIT_MS = 10_000;
const FETCH_MAX_CHARS = 1_000_000;

export function signedOutMessage(name: string, signInUrl: string): string {
  return `You are signed out of ${name}. Ask the user to sign in to ${name} at ${signInUrl}, then call the tool again.`;
}

export function signInUrl(site: string, auth: SignedOutSigns | undefined): string {
  return resolveOnSite(site, auth?.signInPath ?? auth?.loginPath ?? '').href;
}

export function createConnectorContext(config: ContextOptions): ConnectorContext {
  const siteOrigin = new URL(config.site).origin;
  const waitMs = config.timeoutMs ?? DEFAULT_WAIT_MS;
  let tab: Promise<number> | undefined;
  const tabId = () => {
    tab ??= config.port.acquire(config.connectorId, config.site, config.signal);
    tab.catch(() => (tab = undefined));
    return tab;
  };
  const authError = () =>
    new AuthExpiredError(signedOutMessage(config.connectorName, signInUrl(config.site, config.auth)));

  // The decision browser tools meet, asked once per URL for this call; every page command goes through it.
  const guard = new PageGuard(config.port.page, config.urlRefusal);

  const refused = (url: string, verb: string, refusal: string) => {
    let where = url;
    try {
      const parsed = new URL(url);
      where = parsed.origin + parsed.pathname;
    } catch {
      // Not a URL: the refusal says so.
    }
    return new ConnectorError(`${config.connectorName} ${verb} ${where}, which Tabwright may not read. ${refusal}`);
  };

  /** Refuses a URL the gates do not allow, naming it, before the tab goes there. */
  const allowed = async (url: string, verb: string) => {
    const refusal = await guard.verdict(url);
    if (refusal) throw refused(url, verb, refusal);
  };

  /**
   * One page-agent command in the tab's top frame, through the page guard: nothing is sent to a
   * document the gates refuse, and a reply made at a refused address is withheld. `verb` says
   * how the connector met such a document.
   */
  const inPage = async <C extends PageCommand>(command: C, verb: string) => {
    const id = await tabId();
    try {
      return await guard.answer(id, command, { frameId: 0, signal: config.signal });
    } catch (error) {
      if (error instanceof PageRefusal) throw refused(error.url, verb, error.refusal);
      if (error instanceof PageCommandError && !config.signal.aborted) throw new ConnectorError(error.message);
      throw error;
    }
  };

  /** Throws AuthExpiredError when the tab shows the site's sign-in page (or left the site for one). */
  const checkSignedIn = async (id: number) => {
    // The address alone (no read of the page) decides a sign-in redirect, even to a site not allowed.
    const frames = await guard.frames(id).catch((error: unknown) => {
      throw error instanceof PageCommandError ? new ConnectorError(error.message) : error;
    });
    const top = frames.find((frame) => frame.frameId === 0);
    let url: URL;
    try {
      url = new URL(top?.url ?? '');
    } catch {
      throw new ConnectorError(`The ${config.connectorName} tab shows no web page.`);
    }
    const loginPath = config.auth?.loginPath ? resolveOnSite(config.site, config.auth.loginPath).pathname : undefined;
    if (loginPath && url.origin === siteOrigin && url.pathname.startsWith(loginPath)) throw authError();
    // A redirect to another origin (single sign-on) means the session is gone too.
    if (url.origin !== siteOrigin) throw authError();
    const selector = config.auth?.loginSelector;
    const state = await inPage({ op: 'pageState', ...(selector ? { signedOutSelector: selector } : {}) }, 'landed on');
    if (state.value.signedOut) throw authError();
  };

  const extract = async (fields: FieldMap, options: { rows?: string; limit?: number; within?: string }) => {
    const { value } = await inPage({ op: 'extract', ...options, fields: normaliseFieldMap(fields) }, 'is on');
    return value as ExtractedRecord[];
  };

  const ctx: ConnectorContext = {
    signal: config.signal,
    site: config.site,
    async navigate(path, options = {}) {
      let url: URL;
      try {
        url = resolveOnSite(config.site, path);
      } catch (error) {
        throw new ConnectorError(`Connectors stay on their site: ${(error as Error).message}`);
      }
      await allowed(url.href, 'was sent to');
      const id = await tabId();
      config.log(`navigate ${url.pathname}${url.search}`);
      await config.port.navigate(id, url.href, config.signal);
      await checkSignedIn(id);
      if (options.waitFor) await ctx.waitFor(options.waitFor, { timeoutMs: options.timeoutMs ?? waitMs });
    },
    async waitFor(selector, options = {}) {
      const timeoutMs = options.timeoutMs ?? waitMs;
      // The page may change its route (history.pushState) while it is watched: the reply is judged where it ends.
      const { value } = await inPage(
        {
          op: 'waitFor',
          waitId: crypto.randomUUID(),
          selector,
          gone: options.gone ?? false,
          visible: false,
          timeoutMs: Math.max(1, Math.round(timeoutMs)),
        },
        'moved to',
      );
      if (value.met) return;
      await checkSignedIn(await tabId());
      throw new ConnectorError(
        `${options.gone ? 'Still showing' : 'Did not find'} ${selector} on ${config.connectorName} after ${Math.round(timeoutMs / 1000)} s; the page may have changed.`,
      );
    },
    extractRows(rowSelector, fields, options = {}) {
      return extract(fields, { rows: rowSelector, ...options });
    },
    async extractFields(fields: FieldMap): Promise<ExtractedRecord> {
      const [record] = await extract(fields, {});
      return record ?? {};
    },
    async evaluate<Args extends unknown[], R>(fn: (...args: Args) => R, ...args: Args): Promise<Awaited<R>> {
      // The function runs only in a document the gates allow, and its answer leaves only if the tab is still on one.
      await ctx.url();
      const result = await config.port.evaluate(await tabId(), fn, args, config.signal);
      await ctx.url();
      return result;
    },
    async fetch(path, options = {}) {
      let url: URL;
      try {
        url = resolveOnSite(config.site, path);
      } catch (error) {
        throw new ConnectorError(`Connectors only fetch from their site: ${(error as Error).message}`);
      }
      await allowed(url.href, 'was asked to fetch');
      config.log(`${options.method ?? 'GET'} ${url.pathname}${url.search}`);
      const { value: response } = await inPage(
        {
          op: 'fetch',
          url: url.href,
          method: options.method ?? 'GET',
          ...(options.form ? { form: options.form } : {}),
          ...(options.headers ? { headers: options.headers } : {}),
          ...(options.body !== undefined ? { body: options.body } : {}),
          maxChars: options.maxChars ?? FETCH_MAX_CHARS,
        },
        'is on',
      );
      const landed = new URL(response.url || url.href);
      const loginPath = config.auth?.loginPath ? resolveOnSite(config.site, config.auth.loginPath).pathname : undefined;
      if (
        response.status === 401 ||
        landed.origin !== siteOrigin ||
        (loginPath && landed.pathname.startsWith(loginPath))
      ) {
        throw authError();
      }
      await allowed(landed.href, 'was redirected to');
      return response;
    },
    async url() {
      const { url } = await inPage({ op: 'pageState' }, 'is on');
      return url;
    },
    log: config.log,
  };
  return ctx;
}
