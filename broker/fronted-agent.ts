/**
 * What stands behind the broker's `/acp`: the built-in demo agent, or a real agent process the
 * broker relays to. The panel-facing side (acp-host.ts) owns the handshake, sessions, prompt
 * de-duplication and the tunnel; a fronted agent only answers for the agent itself.
 */
import type {
  AuthenticateRequest,
  AuthMethod,
  ContentBlock,
  Implementation,
  InitializeRequest,
  NewSessionResponse,
  PromptCapabilities,
  PromptResponse,
  SessionConfigOption,
  SessionUpdate,
  SetSessionConfigOptionRequest,
} from '@agentclientprotocol/sdk/unstable';
import type { BrokerSession } from './sessions';

export interface AgentIdentity {
  agentInfo: Implementation;
  promptCapabilities: PromptCapabilities;
  /** How the agent signs in, as it lists them; relayed to the panel unchanged. */
  authMethods?: AuthMethod[];
}

/** What an agent says about a session as it starts or comes back: its modes and options (the model among them). */
export type SessionSetup = Pick<NewSessionResponse, 'modes' | 'configOptions'>;

/** Keeps a session's setup current with the agent's own updates, so a panel that resumes hears it. */
export function noteSetupUpdate(session: BrokerSession, update: SessionUpdate): void {
  if (update.sessionUpdate === 'current_mode_update' && session.setup?.modes) {
    session.setup.modes = { ...session.setup.modes, currentModeId: update.currentModeId };
  } else if (update.sessionUpdate === 'config_option_update') {
    session.setup = { ...session.setup, configOptions: update.configOptions };
  }
}

export interface FrontedAgent {
  /** Who the panel is talking to, for its `initialize`; may start the agent to find out. */
  describe(request: InitializeRequest): Promise<AgentIdentity>;
  /** A new session: the agent opens its side of it. The session is already attached. */
  start(session: BrokerSession): Promise<SessionSetup | void>;
  /** A session the panel resumes or loads: the agent must still hold it, restarting if it has to. */
  restore(session: BrokerSession): Promise<SessionSetup | void>;
  /** `session/set_mode`, for an agent that offers modes. */
  setMode?(session: BrokerSession, modeId: string): Promise<void>;
  /** `session/set_config_option`: answered with every option's value after the change. */
  setConfigOption?(session: BrokerSession, request: SetSessionConfigOptionRequest): Promise<SessionConfigOption[]>;
  /** `session/close`: the panel is done with the session; the agent frees it. */
  end?(session: BrokerSession): Promise<void>;
  /** One turn; `signal` aborts when the panel cancels it. */
  prompt(session: BrokerSession, prompt: ContentBlock[], signal: AbortSignal): Promise<PromptResponse>;
  /** Signs the agent in with one of its methods; agent processes started later sign in the same way. */
  authenticate?(request: AuthenticateRequest): Promise<void>;
  /** Forget a session that failed to start. */
  discard(session: BrokerSession): Promise<void>;
  close(): Promise<void>;
}
