/**
 * What an empty chat says, for the agents actually set up: the demo agent's "help", a real agent
 * by name, a token the broker refused, or an agent still on its way.
 */
import type { ConnectionStatus } from '../acp/agent-connection';
import type { MessageKey } from './i18n';

/** The demo agent of Tabwright's broker, as its handshake names it. */
export const DEMO_AGENT_INFO_NAME = 'tabwright-demo-agent';

export interface EmptyChatAgent {
  name: string;
  status: ConnectionStatus;
  enabled: boolean;
  agentInfoName: string | undefined;
}

export interface EmptyChatText {
  key: MessageKey;
  substitutions: string[];
}

const live = (status: ConnectionStatus) => status === 'connected' || status === 'unresponsive';

export function emptyChatText(agents: readonly EmptyChatAgent[]): EmptyChatText {
  const enabled = agents.filter((agent) => agent.enabled);
  const connected = enabled.filter((agent) => live(agent.status));
  const names = (list: readonly EmptyChatAgent[]) => list.map((agent) => agent.name).join(', ');
  if (connected.length) {
    const real = connected.filter((agent) => agent.agentInfoName !== DEMO_AGENT_INFO_NAME);
    if (real.length === 0) return { key: 'emptyChatDemo', substitutions: [names(connected)] };
    return { key: 'emptyChatAgent', substitutions: [names(real)] };
  }
  const refused = enabled.filter((agent) => agent.status === 'auth_failed');
  if (refused.length) return { key: 'emptyChatAuthFailed', substitutions: [names(refused)] };
  if (enabled.length) return { key: 'emptyChatWaiting', substitutions: [names(enabled)] };
  return { key: 'emptyChatNoAgent', substitutions: [] };
}
