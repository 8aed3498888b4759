/**
 * Sends the audit log to the organisation's collector: batch after batch in chain order, each
 * acknowledged by a 2xx before the cursor moves past it, so every entry arrives at least once and
 * in order (a batch the collector took but did not acknowledge is sent again; its lines' ids let
 * the collector drop the repeat). A failure waits out a back-off before the next try; new entries
 * during the wait do not cut it short. The caller runs one of these at a time. Pure: the storage
 * area, `fetch` and the clock are passed in.
 */
import { START, type AuditCheckpoint } from '../mcp-server/gates/audit-chain';
import { AUDIT_KEY, CHECKPOINT_KEY } from '../mcp-server/gates/audit-log';
import type { AuditEntry } from '../mcp-server/gates/types';
import type { StorageArea } from '../shared/stores';
import { retryDelayMs } from './backoff';
import { nextBatch, NO_CURSOR, toJsonLines, type ForwardCursor } from './plan';
import type { ForwardTarget } from './target';

export const FORWARD_KEY = 'auditForward';
/** A collector that neither answers nor refuses within this long counts as down. */
const SEND_TIMEOUT_MS = 30_000;

export interface ForwardState {
  /** The collector the cursor belongs to: another URL starts from the beginning. */
  url: string;
  cursor: ForwardCursor;
  failures: number;
  lastSentAt?: number;
  /** A string in state written before failures were kept by kind: shown as it is. */
  lastError?: SendProblem | string;
  /** No send before this time (ms since the epoch). */
  retryAt?: number;
}

export interface StoredForwarding {
  entries: AuditEntry[];
  checkpoint: AuditCheckpoint;
  state: ForwardState | undefined;
}

const isObject = (value: unknown): value is Record<string, unknown> => !!value && typeof value === 'object';

function isState(value: unknown): value is ForwardState {
  if (!isObject(value) || typeof value.url !== 'string' || !isObject(value.cursor)) return false;
  return Number.isInteger(value.cursor.position) && typeof value.cursor.hash === 'string';
}

export async function readForwarding(area: StorageArea): Promise<StoredForwarding> {
  const stored = await area.get([AUDIT_KEY, CHECKPOINT_KEY, FORWARD_KEY]);
  const checkpoint = stored[CHECKPOINT_KEY] as AuditCheckpoint | undefined;
  return {
    entries: Array.isArray(stored[AUDIT_KEY]) ? (stored[AUDIT_KEY] as AuditEntry[]) : [],
    checkpoint:
      isObject(checkpoint) && Number.isInteger(checkpoint.dropped) && typeof checkpoint.hash === 'string'
        ? checkpoint
        : START,
    state: isState(stored[FORWARD_KEY]) ? stored[FORWARD_KEY] : undefined,
  };
}

/** The state for `url`: a collector it has not seen starts with nothing acknowledged. */
export function stateFor(url: string, state: ForwardState | undefined): ForwardState {
  return state?.url === url ? state : { url, cursor: NO_CURSOR, failures: 0 };
}

export interface ForwarderDeps {
  area: StorageArea;
  fetch: typeof fetch;
  now(): number;
  random?(): number;
}

type OnTarget = Extract<ForwardTarget, { on: true }>;

/** Why a batch did not get through: said to the person in their language by the panel. */
export type SendProblem =
  { kind: 'status'; status: number; statusText?: string } | { kind: 'unreachable'; detail: string };

async function send(target: OnTarget, body: string, fetcher: typeof fetch): Promise<SendProblem | undefined> {
  try {
    const response = await fetcher(target.url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${target.token}`, 'Content-Type': 'application/x-ndjson' },
      body,
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
    if (response.ok) return undefined;
    return {
      kind: 'status',
      status: response.status,
      ...(response.statusText ? { statusText: response.statusText } : {}),
    };
  } catch (error) {
    // A refused preflight looks the same as a collector that is down: fetch only says it failed.
    return { kind: 'unreachable', detail: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Sends everything waiting, or until a send fails. Resolves with when to try again
 * (ms since the epoch), or `undefined` once nothing waits.
 */
export async function forwardWaiting(target: OnTarget, deps: ForwarderDeps): Promise<number | undefined> {
  for (;;) {
    const stored = await readForwarding(deps.area);
    const state = stateFor(target.url, stored.state);
    if (state.retryAt !== undefined && state.retryAt > deps.now()) return state.retryAt;
    const batch = nextBatch(stored.entries, stored.checkpoint, state.cursor, target.batchSize);
    if (!batch) {
      if (stored.state !== state) await deps.area.set({ [FORWARD_KEY]: state });
      return undefined;
    }
    const problem = await send(target, toJsonLines(batch.lines), deps.fetch);
    if (problem) {
      const failures = state.failures + 1;
      const retryAt = deps.now() + retryDelayMs(failures, deps.random);
      await deps.area.set({ [FORWARD_KEY]: { ...state, failures, lastError: problem, retryAt } });
      return retryAt;
    }
    const { lastError: _fixed, retryAt: _waited, ...kept } = state;
    await deps.area.set({ [FORWARD_KEY]: { ...kept, cursor: batch.after, failures: 0, lastSentAt: deps.now() } });
  }
}
