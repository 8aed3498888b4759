/**
 * Which session method to use after `initialize`: resume a known session when the agent can,
 * else load it, else start a new one.
 */
import type { AgentCapabilities } from '@agentclientprotocol/sdk/unstable';
import { PROMPT_DEDUP_META } from '../contract/acp';

export type SessionMethod = 'session/resume' | 'session/load' | 'session/new';

export function planSession(
  capabilities: AgentCapabilities | undefined,
  knownSessionId: string | undefined,
): SessionMethod {
  if (!knownSessionId) return 'session/new';
  if (capabilities?.sessionCapabilities?.resume) return 'session/resume';
  if (capabilities?.loadSession) return 'session/load';
  return 'session/new';
}

/** Our broker says in `initialize` that it drops a prompt whose client message id it has seen. */
export function brokerDropsRepeats(initializeMeta: Record<string, unknown> | null | undefined): boolean {
  return initializeMeta?.[PROMPT_DEDUP_META] === true;
}
