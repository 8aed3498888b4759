/**
 * Where a connector works. Its `matches` are URL match patterns in Chrome's style
 * (`<scheme>://<host>/<path>`, scheme `*` = http or https, host `*` or `*.domain`, no port = any
 * port); the user adds the concrete sites (origin plus optional base path) it should run on.
 */

export interface ParsedPattern {
  schemes: string[];
  host: string;
  port: string | undefined;
  path: string;
}

export function parsePattern(pattern: string): ParsedPattern | undefined {
  const match = /^(\*|https?):\/\/(\*|(?:\*\.)?[^/*:]+)(?::(\d{1,5}))?(\/.*)$/.exec(pattern.trim());
  if (!match) return undefined;
  const [, scheme, host, port, path] = match;
  return {
    schemes: scheme === '*' ? ['http:', 'https:'] : [`${scheme}:`],
    host: host!.toLowerCase(),
    port,
    path: path!,
  };
}

function globToRegExp(glob: string): RegExp {
  const escaped = glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replaceAll('*', '.*');
  return new RegExp(`^${escaped}$`);
}

export function matchesPattern(pattern: string, url: string): boolean {
  const parsed = parsePattern(pattern);
  if (!parsed) return false;
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return false;
  }
  if (!parsed.schemes.includes(target.protocol)) return false;
  const host = target.hostname.toLowerCase();
  if (parsed.host !== '*') {
    if (parsed.host.startsWith('*.')) {
      const base = parsed.host.slice(2);
      if (host !== base && !host.endsWith(`.${base}`)) return false;
    } else if (host !== parsed.host) return false;
  }
  if (parsed.port !== undefined && (target.port || defaultPort(target.protocol)) !== parsed.port) return false;
  return globToRegExp(parsed.path).test(target.pathname + target.search);
}

function defaultPort(protocol: string): string {
  return protocol === 'https:' ? '443' : '80';
}

/**
 * Normalises what a user types as a connector's site: http(s) only, no query or fragment, the
 * path kept as the base (ending in `/`). Returns an error text for anything else.
 */
export function normaliseConnectorSite(input: string): { site: string } | { error: string } {
  const text = input.trim();
  if (!text) return { error: 'Enter the address of the site, like https://tickets.example.com/.' };
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { error: `“${text}” is not a web address.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { error: 'Only http and https sites can be used.' };
  if (url.username || url.password) return { error: 'Leave the user name and password out of the address.' };
  const path = url.pathname.endsWith('/') ? url.pathname : `${url.pathname}/`;
  return { site: `${url.origin}${path}` };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A site written into a match pattern without wildcards, e.g. `https://jira.example.com/*` → that origin. */
export function concreteSite(pattern: string): string | undefined {
  const parsed = parsePattern(pattern);
  if (!parsed || parsed.schemes.length !== 1 || parsed.host.includes('*')) return undefined;
  // `http://127.0.0.1/*` means "a local instance on any port", not port 80: the user names the port.
  if (parsed.port === undefined && LOOPBACK.has(parsed.host)) return undefined;
  const base = parsed.path.replace(/\*.*$/, '');
  const path = base.endsWith('/') ? base : base.slice(0, base.lastIndexOf('/') + 1) || '/';
  return `${parsed.schemes[0]}//${parsed.host}${parsed.port ? `:${parsed.port}` : ''}${path}`;
}

/** The site a connector runs on: the user's first site, else a concrete site from its patterns. */
export function workingSite(matches: readonly string[], userSites: readonly string[]): string | undefined {
  return userSites[0] ?? matches.map(concreteSite).find((site) => site !== undefined);
}

/** Whether `url` belongs to the connector: its own patterns or a site the user added. */
export function belongsTo(url: string, matches: readonly string[], userSites: readonly string[]): boolean {
  return matches.some((pattern) => matchesPattern(pattern, url)) || userSites.some((site) => url.startsWith(site));
}

/** Joins a connector path onto its site and refuses anything that leaves the site. */
export function resolveOnSite(site: string, path: string): URL {
  const base = new URL(site);
  const url = new URL(path.replace(/^\//, ''), base);
  if (url.origin !== base.origin) throw new Error(`${path} is not on ${base.origin}.`);
  return url;
}
