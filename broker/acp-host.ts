/**
 * One panel socket, served as an ACP agent: the handshake, sessions (new, resume, load), prompts
 * de-duplicated by client message id, cancellation, and the tunnel to the panel's declared MCP
 * servers. Turns go to the fronted agent (the demo agent or a relayed agent process).
 */
import { randomUUID } from 'node:crypto';
import {
  agent,
  methods,
  RequestError,
  type AgentConnection,
  type ContentBlock,
  type PromptResponse,
} from '@agentclientprotocol/sdk/unstable';
import {
  isJsonObject,
  MAX_DECLARED_SERVERS,
  MESSAGE_ID_META,
  PARAMS_NOT_OBJECT,
  PROMPT_DEDUP_META,
  TURN_CUT_META,
} from '../src/contract/acp';
import type { FrontedAgent, SessionSetup } from './fronted-agent';
import { mcpCaller, PanelServer, type AcpDeclaration, type Dialect } from './panel-tools';
import type { BrokerSession, SessionStore } from './sessions';

export interface HostOptions {
  sessions: SessionStore;
  dialect: Dialect;
  agent: FrontedAgent;
  /** Bound on each tunnelled call (the contract's 180 s unless a test shortens it). */
  tunnelTimeoutMs?: number;
  log(line: string): void;
}

const Raw = {
  parse(value: unknown): Record<string, unknown> {
    if (!isJsonObject(value)) throw RequestError.invalidParams(undefined, PARAMS_NOT_OBJECT);
    return value;
  },
};

export function acpDeclarations(params: Record<string, unknown>): AcpDeclaration[] {
  const servers = params.mcpServers;
  if (servers === undefined) return [];
  if (!Array.isArray(servers)) throw RequestError.invalidParams(undefined, 'mcpServers must be an array');
  const acp = servers.filter(
    (server): server is AcpDeclaration =>
      typeof server === 'object' && server !== null && (server as AcpDeclaration).type === 'acp',
  );
  for (const server of acp) {
    if (typeof server.name !== 'string' || (typeof server.id !== 'string' && typeof server.serverId !== 'string')) {
      throw RequestError.invalidParams(undefined, 'an acp MCP server needs a name and an id');
    }
  }
  if (acp.length > MAX_DECLARED_SERVERS) {
    throw RequestError.invalidParams(undefined, `At most ${MAX_DECLARED_SERVERS} acp MCP servers per session`);
  }
  const names = new Set(acp.map((server) => server.name));
  if (names.size !== acp.length) throw RequestError.invalidParams(undefined, 'acp MCP server names must be unique');
  return acp;
}

function unknownSession(id: unknown): RequestError {
  return new RequestError(-32002, `Unknown session ${String(id)}`);
}

/** The answer to a repeat of a message whose turn the broker was running when it stopped. */
function turnCut(): RequestError {
  return RequestError.internalError(
    { [TURN_CUT_META]: true },
    'The broker stopped while the agent was answering this message, so the reply is incomplete; it was not run again.',
  );
}

/** The setup fields of a session answer, without empty ones. */
function setupFields(setup: SessionSetup | undefined): SessionSetup {
  return {
    ...(setup?.modes ? { modes: setup.modes } : {}),
    ...(setup?.configOptions ? { configOptions: setup.configOptions } : {}),
  };
}

export function createAcpHost(options: HostOptions) {
  const { sessions } = options;
  /** This socket's connection; request contexts are per request, this one lives as long as the socket. */
  let socket: AgentConnection | undefined;
  const linked = (): AgentConnection => {
    if (!socket) throw new Error('connection not open');
    return socket;
  };

  const attach = (session: BrokerSession, params: Record<string, unknown>) => {
    const declared = acpDeclarations(params);
    const connection = linked();
    const servers = declared.map(
      (declaration) =>
        new PanelServer(connection.client, declaration, options.dialect, {
          connectionSignal: connection.signal,
          ...(options.tunnelTimeoutMs ? { timeoutMs: options.tunnelTimeoutMs } : {}),
        }),
    );
    sessions.attach(session, connection.client, declared, servers);
    return declared;
  };

  const restore = async (params: Record<string, unknown>) => {
    const session = sessions.get(String(params.sessionId));
    if (!session) throw unknownSession(params.sessionId);
    attach(session, params);
    try {
      const setup = await options.agent.restore(session);
      if (setup) session.setup = setup;
    } catch (error) {
      const data = error instanceof RequestError ? error.data : undefined;
      throw new RequestError(
        -32002,
        `The agent could not restore session ${session.id}: ${(error as Error).message}`,
        data,
      );
    }
    return setupFields(session.setup);
  };

  /** The session a request names, held by this socket. */
  const owned = (sessionId: unknown): BrokerSession => {
    const session = sessions.get(String(sessionId));
    if (!session) throw unknownSession(sessionId);
    if (session.client !== linked().client)
      throw RequestError.invalidRequest(undefined, 'Resume the session on this connection first');
    return session;
  };

  const relayed = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      if (error instanceof RequestError) throw error;
      throw RequestError.internalError(undefined, `The agent could not ${what}: ${(error as Error).message}`);
    }
  };

  const runTurn = async (session: BrokerSession, prompt: ContentBlock[]): Promise<PromptResponse> => {
    const controller = new AbortController();
    session.turn = controller;
    session.received.push(prompt.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join(''));
    sessions.save();
    try {
      return await options.agent.prompt(session, prompt, controller.signal);
    } catch (error) {
      if (error instanceof RequestError) throw error;
      throw RequestError.internalError(undefined, (error as Error).message);
    } finally {
      if (session.turn === controller) session.turn = undefined;
    }
  };

  /** The panel's `list_changed` for one of its servers: forget that server's tools and tell `/mcp`. */
  const toolsChanged = (connectionId: unknown) => {
    for (const session of sessions.all()) {
      if (session.client !== socket?.client) continue;
      const owners = session.servers.filter((server) => typeof connectionId === 'string' && server.owns(connectionId));
      for (const server of owners.length ? owners : session.servers) server.invalidate();
      if (owners.length || typeof connectionId !== 'string') sessions.changed(session);
    }
  };

  return agent({ name: 'tabwright-broker' })
    .onConnect((connection) => {
      socket = connection;
    })
    .onRequest(methods.agent.initialize, async ({ params }) => {
      const identity = await options.agent.describe(params).catch((error: unknown) => {
        throw RequestError.internalError(undefined, `The agent did not start: ${(error as Error).message}`);
      });
      return {
        protocolVersion: 1,
        agentCapabilities: {
          loadSession: true,
          sessionCapabilities: { resume: {}, close: {} },
          mcpCapabilities: { acp: true },
          promptCapabilities: identity.promptCapabilities,
        },
        agentInfo: identity.agentInfo,
        authMethods: identity.authMethods ?? [],
        _meta: { [PROMPT_DEDUP_META]: true },
      };
    })
    .onRequest(methods.agent.authenticate, async ({ params }) => {
      if (!options.agent.authenticate) throw RequestError.invalidParams(undefined, 'This agent has no sign-in');
      await options.agent.authenticate(params).catch((error: unknown) => {
        throw error instanceof RequestError
          ? error
          : RequestError.internalError(undefined, `The agent could not sign in: ${(error as Error).message}`);
      });
      return {};
    })
    .onRequest(methods.agent.session.new, Raw, async ({ params }) => {
      const session = sessions.create(randomUUID());
      const declared = attach(session, params);
      try {
        const setup = await options.agent.start(session);
        if (setup) session.setup = setup;
      } catch (error) {
        sessions.forget(session.id);
        await options.agent.discard(session).catch(() => undefined);
        throw error instanceof RequestError
          ? error
          : RequestError.internalError(undefined, `The agent could not start a session: ${(error as Error).message}`);
      }
      options.log(`session ${session.id.slice(0, 8)} started with ${declared.length} tool server(s)`);
      return { sessionId: session.id, ...setupFields(session.setup) };
    })
    .onRequest(methods.agent.session.resume, Raw, ({ params }) => restore(params))
    .onRequest(methods.agent.session.load, Raw, ({ params }) => restore(params))
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      const session = sessions.get(params.sessionId);
      if (!session) throw unknownSession(params.sessionId);
      if (session.client !== linked().client)
        throw RequestError.invalidRequest(undefined, 'Resume the session on this connection first');
      const messageId = params._meta?.[MESSAGE_ID_META];
      if (typeof messageId === 'string') {
        const seen = session.delivered.get(messageId);
        if (seen) {
          options.log(`dropped a repeat of message ${messageId.slice(0, 8)}`);
          if (seen === 'cut') throw turnCut();
          return seen;
        }
        const answer = runTurn(session, params.prompt);
        session.delivered.set(messageId, answer);
        sessions.save();
        void answer.then(
          ({ stopReason }) => {
            session.ended.set(messageId, stopReason);
            sessions.save();
          },
          () => undefined,
        );
        return answer;
      }
      return runTurn(session, params.prompt);
    })
    .onRequest(methods.agent.session.setMode, async ({ params }) => {
      const session = owned(params.sessionId);
      const fronted = options.agent;
      if (!fronted.setMode || !session.setup?.modes) throw RequestError.methodNotFound('session/set_mode');
      await relayed('switch modes', () => fronted.setMode!(session, params.modeId));
      if (session.setup.modes) session.setup.modes = { ...session.setup.modes, currentModeId: params.modeId };
      return {};
    })
    .onRequest(methods.agent.session.setConfigOption, async ({ params }) => {
      const session = owned(params.sessionId);
      const fronted = options.agent;
      if (!fronted.setConfigOption) throw RequestError.methodNotFound('session/set_config_option');
      const configOptions = await relayed('change the option', () => fronted.setConfigOption!(session, params));
      session.setup = { ...session.setup, configOptions };
      return { configOptions };
    })
    .onRequest(methods.agent.session.close, async ({ params }) => {
      const session = owned(params.sessionId);
      session.turn?.abort();
      await relayed('close the session', async () => options.agent.end?.(session));
      sessions.forget(session.id);
      options.log(`session ${session.id.slice(0, 8)} closed by the panel`);
      return {};
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.turn?.abort();
    })
    .onNotification(methods.agent.mcp.message, Raw, (context) => {
      const { params } = context;
      if ('serverId' in params) return mcpCaller.handleNotification(context as never);
      if (params.method === 'notifications/tools/list_changed') toolsChanged(params.connectionId);
    });
}
