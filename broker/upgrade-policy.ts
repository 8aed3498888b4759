/**
 * Who may open `GET /acp` (and call `/mcp`): only the extension or a non-browser client (no
 * Origin), only through a loopback Host name (a DNS-rebinding page gets its own name in Host),
 * only speaking acp.v1, and only with the bearer token when one is set.
 */
import { timingSafeEqual } from 'node:crypto';

export const ACP_SUBPROTOCOL = 'acp.v1';
export const BEARER_PREFIX = 'openab.bearer.';

export type Verdict = { ok: true } | { ok: false; status: 400 | 401 | 403; reason: string };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function hostIsLoopback(hostHeader: string | undefined, extraHosts: readonly string[] = []): boolean {
  if (!hostHeader) return false;
  const name = hostHeader.replace(/:\d+$/, '').toLowerCase();
  return LOOPBACK_HOSTS.has(name) || extraHosts.includes(name);
}

export function originAllowed(origin: string | undefined): boolean {
  return origin === undefined || origin === '' || origin.startsWith('chrome-extension://');
}

export function tokensMatch(expected: string, offered: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(offered);
  return a.length === b.length && timingSafeEqual(a, b);
}

export interface RequestFacts {
  host: string | undefined;
  origin: string | undefined;
}

export function judgeRequest(facts: RequestFacts, extraHosts: readonly string[] = []): Verdict {
  if (!hostIsLoopback(facts.host, extraHosts)) return { ok: false, status: 403, reason: 'Host is not a loopback name' };
  if (!originAllowed(facts.origin)) return { ok: false, status: 403, reason: 'Web pages may not connect' };
  return { ok: true };
}

export function judgeUpgrade(
  facts: RequestFacts & { protocols: readonly string[] },
  token: string | undefined,
  extraHosts: readonly string[] = [],
): Verdict {
  const base = judgeRequest(facts, extraHosts);
  if (!base.ok) return base;
  if (!facts.protocols.includes(ACP_SUBPROTOCOL)) {
    return { ok: false, status: 400, reason: `Offer the ${ACP_SUBPROTOCOL} subprotocol` };
  }
  if (token) {
    const bearer = facts.protocols.find((p) => p.startsWith(BEARER_PREFIX));
    if (!bearer || !tokensMatch(token, bearer.slice(BEARER_PREFIX.length))) {
      return { ok: false, status: 401, reason: 'Missing or wrong bearer token' };
    }
  }
  return { ok: true };
}

/** `/mcp` takes the token the way HTTP MCP clients send one: `Authorization: Bearer <token>`. */
export function judgeHttpBearer(
  facts: RequestFacts & { authorization: string | undefined },
  token: string | undefined,
  extraHosts: readonly string[] = [],
): Verdict {
  const base = judgeRequest(facts, extraHosts);
  if (!base.ok || !token) return base;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(facts.authorization ?? '');
  if (!match || !tokensMatch(token, match[1]!)) {
    return { ok: false, status: 401, reason: 'Missing or wrong bearer token (send Authorization: Bearer <token>)' };
  }
  return { ok: true };
}

export function parseProtocols(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
}
