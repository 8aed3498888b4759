/**
 * The `ctx` a connector tool gets, built over a narrow port to the connector's own tab. Everything
 * here is pure: the port (implemented over `chrome.tabs` and `chrome.scripting` in
 * src/platform/connector-tabs.ts) opens, navigates and runs functions; this decides what to run,
 * keeps every request on the connector's site, and turns sign-in pages into AuthExpiredError.
 * Every URL the connector goes to, fetches or lands on (after redirects, after the page changed
 * its own route) is put to the gates' own decision before anything read from it is returned.
 */
import { SECRET_FIELDS, normaliseFieldMap, type ExtractedRecord, type FieldMap } from './fields';
import {
  extractInPage,
  fetchInPage,
  pageStateInPage,
  waitInPage,
  type InPageResult,
  type PageFetchResponse,
} from './in-page';
import { AuthExpiredError, ConnectorError, type ConnectorContext, type SignedOutSigns } from './sdk';
import { resolveOnSite } from './sites';

/** The connector's own background tab, as the SDK sees it. */
export interface ConnectorTabPort {
  /** The connector's tab, opened in the background at `url` when it has none (or it was closed). */
  acquire(connectorId: string, url: string, signal: AbortSignal): Promise<number>;
  /** Loads `url` and resolves once it finished loading (bounded); returns the final URL. */
  navigate(tabId: number, url: string, signal: AbortSignal): Promise<string>;
  /** Runs a self-contained function in the tab's top frame and returns its (awaited) result. */
  run<Args extends unknown[], R>(
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

function unwrap<T>(result: InPageResult<T> | undefined, what: string): { value: T; url: string | undefined } {
  if (!result) throw new ConnectorError(`The page gave no answer to ${what} (it may have navigated).`);
  if (!result.ok) throw new ConnectorError(result.error);
  return { value: result.value, url: result.url };
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

  /** Refuses a URL the gates do not allow, naming it, before anything from it goes further. */
  const allowed = async (url: string, verb: string) => {
    const refusal = await config.urlRefusal(url);
    if (!refusal) return;
    let where = url;
    try {
      const parsed = new URL(url);
      where = parsed.origin + parsed.pathname;
    } catch {
      // Not a URL: the refusal says so.
    }
    throw new ConnectorError(`${config.connectorName} ${verb} ${where}, which Tabwright may not read. ${refusal}`);
  };

  /** Throws AuthExpiredError when the tab shows the site's sign-in page (or left the site for one). */
  const checkSignedIn = async (id: number) => {
    const state = await config.port.run(id, pageStateInPage, [config.auth?.loginSelector ?? null], config.signal);
    let url: URL;
    try {
      url = new URL(state.url);
    } catch {
      throw new ConnectorError(`The ${config.connectorName} tab shows no web page.`);
    }
    const loginPath = config.auth?.loginPath ? resolveOnSite(config.site, config.auth.loginPath).pathname : undefined;
    if (state.signedOut || (loginPath && url.origin === siteOrigin && url.pathname.startsWith(loginPath))) {
      throw authError();
    }
    // A redirect to another origin (single sign-on) means the session is gone too.
    if (url.origin !== siteOrigin) throw authError();
    await allowed(url.href, 'landed on');
  };

  /** Extracted values leave only when the document they were read from is allowed. */
  const read = async <T>(result: { value: T; url: string | undefined }): Promise<T> => {
    if (result.url === undefined) throw new ConnectorError('The page did not say where it was; nothing was read.');
    await allowed(result.url, 'is on');
    return result.value;
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
      const id = await tabId();
      const found = unwrap(
        await config.port.run(
          id,
          waitInPage,
          [selector, options.timeoutMs ?? waitMs, options.gone ?? false],
          config.signal,
        ),
        `wait for ${selector}`,
      );
      // The page may have changed its route (history.pushState) while it was watched.
      if (found.url !== undefined) await allowed(found.url, 'moved to');
      if (found.value) return;
      await checkSignedIn(id);
      throw new ConnectorError(
        `${options.gone ? 'Still showing' : 'Did not find'} ${selector} on ${config.connectorName} after ${Math.round((options.timeoutMs ?? waitMs) / 1000)} s; the page may have changed.`,
      );
    },
    async extractRows(rowSelector, fields, options = {}) {
      const id = await tabId();
      return read(
        unwrap(
          await config.port.run(
            id,
            extractInPage,
            [{ rows: rowSelector, fields: normaliseFieldMap(fields), ...options, secret: SECRET_FIELDS }],
            config.signal,
          ),
          'extract rows',
        ),
      );
    },
    async extractFields(fields: FieldMap): Promise<ExtractedRecord> {
      const id = await tabId();
      const [record] = await read(
        unwrap(
          await config.port.run(
            id,
            extractInPage,
            [{ fields: normaliseFieldMap(fields), secret: SECRET_FIELDS }],
            config.signal,
          ),
          'extract fields',
        ),
      );
      return record ?? {};
    },
    async evaluate<Args extends unknown[], R>(fn: (...args: Args) => R, ...args: Args): Promise<Awaited<R>> {
      const id = await tabId();
      const result = await config.port.run(id, fn, args, config.signal);
      await ctx.url();
      return result;
    },
    async fetch(path, options = {}): Promise<PageFetchResponse> {
      let url: URL;
      try {
        url = resolveOnSite(config.site, path);
      } catch (error) {
        throw new ConnectorError(`Connectors only fetch from their site: ${(error as Error).message}`);
      }
      await allowed(url.href, 'was asked to fetch');
      const id = await tabId();
      config.log(`${options.method ?? 'GET'} ${url.pathname}${url.search}`);
      const { value: response } = unwrap(
        await config.port.run(
          id,
          fetchInPage,
          [
            {
              url: url.href,
              method: options.method ?? 'GET',
              ...(options.form ? { form: options.form } : {}),
              ...(options.headers ? { headers: options.headers } : {}),
              ...(options.body !== undefined ? { body: options.body } : {}),
              maxChars: options.maxChars ?? FETCH_MAX_CHARS,
            },
          ],
          config.signal,
        ),
        `fetch ${url.pathname}`,
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
      const id = await tabId();
      const { url } = await config.port.run(id, pageStateInPage, [null], config.signal);
      await allowed(url, 'is on');
      return url;
    },
    log: config.log,
  };
  return ctx;
}
