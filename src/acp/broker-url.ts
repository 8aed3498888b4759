/**
 * Checks what the user types for a broker before anything connects, so a bad URL or token is
 * refused in the form with a reason instead of failing later as a mysterious closed socket.
 */

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** Characters RFC 6455 allows in a subprotocol token (RFC 7230 `tchar`). */
const SUBPROTOCOL_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export const ACP_SUBPROTOCOL = 'acp.v1';
export const BEARER_PREFIX = 'openab.bearer.';

export function checkToken(raw: string): Checked<string> {
  const token = raw.trim();
  if (token === '') return { ok: true, value: '' };
  if (!SUBPROTOCOL_TOKEN.test(token)) {
    return {
      ok: false,
      error:
        'The token contains characters a WebSocket subprotocol cannot carry (such as / = : or spaces). ' +
        'Use a base64url or hex token.',
    };
  }
  return { ok: true, value: token };
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

export interface BrokerEndpoint {
  url: string;
  /** True when a token would travel unencrypted to another machine. */
  insecureForToken: boolean;
}

export function checkBrokerUrl(raw: string): Checked<BrokerEndpoint> {
  const text = raw.trim();
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, error: 'Enter a full WebSocket URL, for example ws://127.0.0.1:8765/acp.' };
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    return {
      ok: false,
      error: `Use ${url.protocol === 'https:' ? 'wss' : 'ws'}:// for the broker, not ${url.protocol}//.`,
    };
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:') {
    return { ok: false, error: 'The broker URL must start with ws:// or wss://.' };
  }
  if (url.username || url.password) {
    return { ok: false, error: 'Put the token in the Token field, not in the URL.' };
  }
  if (url.hash) return { ok: false, error: 'The broker URL cannot have a #fragment.' };
  return {
    ok: true,
    value: { url: url.href, insecureForToken: url.protocol === 'ws:' && !isLoopbackHost(url.hostname) },
  };
}

/** The subprotocol offer: the bearer token first (when there is one), then the ACP version. */
export function subprotocolsFor(token: string): string[] {
  return token ? [BEARER_PREFIX + token, ACP_SUBPROTOCOL] : [ACP_SUBPROTOCOL];
}

/** The broker's plain HTTP address, fetched to tell "turned away" from "nobody there". */
export function httpUrlFor(wsUrl: string): string {
  const url = new URL(wsUrl);
  url.protocol = url.protocol === 'wss:' ? 'https:' : 'http:';
  return url.href;
}
