/**
 * Who may open `GET /acp` and call `/mcp`. Only through a loopback Host name (a DNS-rebinding page
 * gets its own name in Host); never from a web page; from an extension only when its id is
 * admitted (the test build's or one given by `--extension-id`), since every installed extension
 * could otherwise drive the agent; from a client that sends no Origin (an agent or tool in Node)
 * only with the bearer token, so a broker without a token serves the admitted extensions alone and
 * keeps `/mcp` off.
 *
 * A fronted agent never holds the broker's token: each session's agent gets a credential of its
 * own, which opens that session's `/mcp/<session>` and nothing else. The credential decides which
 * session a request speaks for; the path only has to agree with it.
 */
import { timingSafeEqual } from 'node:crypto';
import { notAdmittedReason, REFUSAL_CLOSE } from '../src/contract/refusals';
import { extensionIdOf } from './extension-ids';

export const ACP_SUBPROTOCOL = 'acp.v1';
export const BEARER_PREFIX = 'openab.bearer.';

/**
 * A refusal is an HTTP status, or for an extension (which cannot read one) a close code: the upgrade
 * is accepted and closed at once with `closeCode` and `closeReason` (see src/contract/refusals.ts).
 */
export type Verdict =
  { ok: true } | { ok: false; status: 400 | 401 | 403 | 404; reason: string; closeCode?: number; closeReason?: string };

export interface Admission {
  /** The bearer token; undefined when the broker runs without one. */
  token: string | undefined;
  /** Extensions whose `chrome-extension://<id>` Origin is admitted. */
  extensionIds: ReadonlySet<string>;
  /** Names besides the loopback ones that Host may carry (the address the broker listens on). */
  extraHosts?: readonly string[];
}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export const NO_TOKEN_MCP_OFF =
  'This broker runs without a token (--no-token), so /mcp is off: restart it with a token to serve MCP clients';

export function hostIsLoopback(hostHeader: string | undefined, extraHosts: readonly string[] = []): boolean {
  if (!hostHeader) return false;
  const name = hostHeader.replace(/:\d+$/, '').toLowerCase();
  return LOOPBACK_HOSTS.has(name) || extraHosts.includes(name);
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

const hasOrigin = (facts: RequestFacts) => facts.origin !== undefined && facts.origin !== '';

/** Host and Origin: what every route checks first. A missing Origin passes here; the routes decide. */
export function judgeRequest(facts: RequestFacts, admission: Admission): Verdict {
  if (!hostIsLoopback(facts.host, admission.extraHosts)) {
    return { ok: false, status: 403, reason: 'Host is not a loopback name' };
  }
  if (!hasOrigin(facts)) return { ok: true };
  const origin = facts.origin!;
  if (!origin.startsWith('chrome-extension://')) return { ok: false, status: 403, reason: 'Web pages may not connect' };
  const id = extensionIdOf(origin);
  if (!id) return { ok: false, status: 403, reason: 'This extension is not admitted' };
  if (!admission.extensionIds.has(id)) {
    return {
      ok: false,
      status: 403,
      reason: `Extension ${id} is not admitted (start the broker with --extension-id ${id} to admit it)`,
    };
  }
  return { ok: true };
}

export const ACP_PATH = '/acp';

/**
 * `GET /acp`'s upgrade. Host and a web page's Origin are refused over HTTP (they get nothing to
 * read); an extension offering `acp.v1` is told the rest in a close frame: a wrong path, that its id
 * is not admitted, a missing or wrong token, in that order.
 */
export function judgeUpgrade(
  facts: RequestFacts & { protocols: readonly string[]; path?: string },
  admission: Admission,
): Verdict {
  const base = judgeRequest(facts, admission);
  const extensionId = hasOrigin(facts) ? extensionIdOf(facts.origin!) : undefined;
  if (!base.ok && (extensionId === undefined || !hostIsLoopback(facts.host, admission.extraHosts))) return base;
  const tellable = extensionId !== undefined && facts.protocols.includes(ACP_SUBPROTOCOL);
  const told = (verdict: Extract<Verdict, { ok: false }>, closeCode: number, closeReason: string): Verdict =>
    tellable ? { ...verdict, closeCode, closeReason } : verdict;
  if (facts.path !== undefined && facts.path !== ACP_PATH) {
    return told(
      { ok: false, status: 404, reason: `Only ${ACP_PATH} accepts WebSocket connections` },
      REFUSAL_CLOSE.wrongPath,
      `wrong path: this broker serves ${ACP_PATH}`,
    );
  }
  if (!base.ok) return told(base, REFUSAL_CLOSE.notAdmitted, notAdmittedReason(extensionId!));
  if (!facts.protocols.includes(ACP_SUBPROTOCOL)) {
    return { ok: false, status: 400, reason: `Offer the ${ACP_SUBPROTOCOL} subprotocol` };
  }
  const { token } = admission;
  if (!token) {
    if (hasOrigin(facts)) return { ok: true };
    return {
      ok: false,
      status: 403,
      reason: 'This broker runs without a token: only the admitted extensions may connect (clients send no Origin)',
    };
  }
  const bearer = facts.protocols.find((p) => p.startsWith(BEARER_PREFIX));
  if (!bearer || !tokensMatch(token, bearer.slice(BEARER_PREFIX.length))) {
    return told(
      { ok: false, status: 401, reason: 'Missing or wrong bearer token' },
      REFUSAL_CLOSE.wrongToken,
      bearer ? 'wrong token' : 'missing token: this broker needs one',
    );
  }
  return { ok: true };
}

const WRONG_BEARER = 'Missing or wrong bearer token (send Authorization: Bearer <token>)';

/** `/mcp` takes the token the way HTTP MCP clients send one: `Authorization: Bearer <token>`. */
export function judgeHttpBearer(
  facts: RequestFacts & { authorization: string | undefined },
  admission: Admission,
): Verdict {
  const base = judgeRequest(facts, admission);
  if (!base.ok) return base;
  const { token } = admission;
  if (!token) return { ok: false, status: 403, reason: NO_TOKEN_MCP_OFF };
  const match = /^Bearer\s+(\S+)\s*$/i.exec(facts.authorization ?? '');
  if (!match || !tokensMatch(token, match[1]!)) return { ok: false, status: 401, reason: WRONG_BEARER };
  return { ok: true };
}

/** A session's credential, as the MCP route checks it. */
export interface SessionCredential {
  sessionId: string;
  credential: string;
}

/**
 * `/mcp` (route '') and `/mcp/<session>`: the broker's token opens both; a session's credential
 * opens its own session's route alone, while the session lives. A credential offered on another
 * route is refused with 403 (it is valid, but not here), one that matches nothing with 401.
 */
export function judgeMcpBearer(
  facts: RequestFacts & { authorization: string | undefined },
  admission: Admission,
  route: string,
  credentials: Iterable<SessionCredential>,
): Verdict {
  const operator = judgeHttpBearer(facts, admission);
  if (operator.ok || operator.status !== 401) return operator;
  const offered = /^Bearer\s+(\S+)\s*$/i.exec(facts.authorization ?? '')?.[1];
  if (!offered) return operator;
  let owner: string | undefined;
  // Every credential is compared, so the time taken says nothing about which one was close.
  for (const { sessionId, credential } of credentials) {
    if (tokensMatch(credential, offered)) owner = sessionId;
  }
  if (owner === undefined) {
    return { ok: false, status: 401, reason: `${WRONG_BEARER}; a session's credential ends with its session` };
  }
  if (route === '') {
    return {
      ok: false,
      status: 403,
      reason: "This is an agent's session credential: it opens only its own session's /mcp/<session>, not /mcp",
    };
  }
  if (route !== owner) {
    return {
      ok: false,
      status: 403,
      reason: "This credential belongs to another session: it opens only its own session's /mcp/<session>",
    };
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
