/**
 * Where the organisation's policy sends the audit log, if anywhere. A collector must be reached
 * over https, or over plain http only on this machine's loopback (a local relay): the entries name
 * sites and what agents typed, and the bearer token rides along. Pure.
 */
import type { Policy } from '../shared/policy';

export const DEFAULT_BATCH_SIZE = 100;

/** Why a collector URL is refused: said to the person in their language by the panel. */
export type CollectorProblem = 'not-url' | 'credentials' | 'plain-http' | 'scheme';

export type ForwardTarget =
  | { on: false }
  | { on: false; refused: CollectorProblem; url: string }
  | { on: true; url: string; origin: string; token: string; batchSize: number };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** Why `url` cannot be a collector, or `undefined` when it can. */
export function collectorProblem(url: string): CollectorProblem | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'not-url';
  }
  if (parsed.username || parsed.password) return 'credentials';
  if (parsed.protocol === 'https:') return undefined;
  if (parsed.protocol === 'http:') return LOOPBACK.has(parsed.hostname) ? undefined : 'plain-http';
  return 'scheme';
}

export function forwardTarget(policy: Policy): ForwardTarget {
  const forwarding = policy.AuditForwarding;
  if (!forwarding) return { on: false };
  const problem = collectorProblem(forwarding.url);
  if (problem) return { on: false, refused: problem, url: forwarding.url };
  return {
    on: true,
    url: forwarding.url,
    origin: new URL(forwarding.url).origin,
    token: forwarding.token,
    batchSize: forwarding.batchSize ?? DEFAULT_BATCH_SIZE,
  };
}
