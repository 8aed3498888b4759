/**
 * One panel socket, served as an ACP agent: the handshake, sessions (new, resume, load), prompts
 * de-duplicated by client message id, cancellation, and the demo agent's turns, which reach the
 * panel's tools through the same socket.
 */
import { randomUUID } from 'node:crypto';
import {
  agent,
  methods,
  RequestError,
  type AgentContext,
  type PromptResponse,
  type SessionUpdate,
} from '@agentclientprotocol/sdk/unstable';
import { runDemoTurn, type TurnIO } from './demo-agent';
import { MAX_ACP_SERVERS_PER_SESSION } from './limits';
import { mcpCaller, PanelServer, textOf, type AcpDeclaration, type Dialect } from './panel-tools';
import type { BrokerSession, SessionStore } from './sessions';

export const PROMPT_DEDUP_META = 'tabwright/dropsRepeatedPrompts';
export const MESSAGE_ID_META = 'tabwright/messageId';

export interface HostOptions {
  sessions: SessionStore;
  dialect: Dialect;
  version: string;
  /** Delay between streamed chunks, so a reply streams like a model's. */
  chunkDelayMs: number;
  log(line: string): void;
}

const Raw = {
  parse(value: unknown): Record<string, unknown> {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw RequestError.invalidParams(undefined, 'params must be an object');
    }
    return value as Record<string, unknown>;
  },
};

function acpDeclarations(params: Record<string, unknown>): AcpDeclaration[] {
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
  if (acp.length > MAX_ACP_SERVERS_PER_SESSION) {
    throw RequestError.invalidParams(undefined, `At most ${MAX_ACP_SERVERS_PER_SESSION} acp MCP servers per session`);
  }
  return acp;
}

export function createAcpHost(options: HostOptions) {
  /** Tool servers per session for this socket: rebuilt when a session is (re)bound. */
  const panelServers = new Map<string, PanelServer[]>();
  /** This socket's client side; request contexts are per request, this one lives as long as the socket. */
  let socketClient: AgentContext | undefined;
  const linked = (): AgentContext => {
    if (!socketClient) throw new Error('connection not open');
    return socketClient;
  };

  const bind = (session: BrokerSession, client: AgentContext, declared: AcpDeclaration[]) => {
    for (const server of panelServers.get(session.id) ?? []) void server.close();
    session.declared = declared;
    session.client = client;
    panelServers.set(
      session.id,
      declared.map((declaration) => new PanelServer(client, declaration, options.dialect)),
    );
  };

  const sendUpdate = async (session: BrokerSession, update: SessionUpdate) => {
    await session.client?.notify('session/update', { sessionId: session.id, update }).catch(() => undefined);
  };

  const turnIO = (session: BrokerSession, signal: AbortSignal): TurnIO => ({
    signal,
    say: async (markdown) => {
      for (const chunk of markdown.match(/[\s\S]{1,24}/g) ?? []) {
        if (signal.aborted) return;
        await sendUpdate(session, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: chunk } });
        if (options.chunkDelayMs > 0) await new Promise((r) => setTimeout(r, options.chunkDelayMs));
      }
    },
    browser: () => panelServers.get(session.id)?.[0],
    callTool: async (server, tool, args) => {
      const toolCallId = randomUUID();
      await sendUpdate(session, {
        sessionUpdate: 'tool_call',
        toolCallId,
        title: tool,
        kind: 'other',
        status: 'in_progress',
        rawInput: args,
      });
      try {
        const result = await server.call(tool, args, signal);
        await sendUpdate(session, {
          sessionUpdate: 'tool_call_update',
          toolCallId,
          status: result.isError ? 'failed' : 'completed',
          content: [{ type: 'content', content: { type: 'text', text: textOf(result).slice(0, 4_000) } }],
        });
        return result;
      } catch (error) {
        const message = (error as Error).message;
        await sendUpdate(session, {
          sessionUpdate: 'tool_call_update',
          toolCallId,
          status: 'failed',
          content: [{ type: 'content', content: { type: 'text', text: message } }],
        });
        return { isError: true, content: [{ type: 'text', text: message }] };
      }
    },
  });

  const runTurn = async (session: BrokerSession, text: string): Promise<PromptResponse> => {
    const controller = new AbortController();
    session.turn = controller;
    session.received.push(text);
    options.sessions.save();
    try {
      await runDemoTurn(text, turnIO(session, controller.signal));
      return { stopReason: controller.signal.aborted ? 'cancelled' : 'end_turn' };
    } finally {
      if (session.turn === controller) session.turn = undefined;
    }
  };

  return agent({ name: 'tabwright-broker' })
    .onConnect((connection) => {
      socketClient = connection.client;
    })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: 1,
      agentCapabilities: {
        loadSession: true,
        sessionCapabilities: { resume: {} },
        mcpCapabilities: { acp: true },
        promptCapabilities: { embeddedContext: false, image: false, audio: false },
      },
      agentInfo: { name: 'tabwright-demo-agent', title: 'Tabwright demo agent', version: options.version },
      authMethods: [],
      _meta: { [PROMPT_DEDUP_META]: true },
    }))
    .onRequest(methods.agent.session.new, Raw, ({ params }) => {
      const declared = acpDeclarations(params);
      const session = options.sessions.create(randomUUID());
      bind(session, linked(), declared);
      options.log(`session ${session.id.slice(0, 8)} started with ${declared.length} tool server(s)`);
      return { sessionId: session.id };
    })
    .onRequest(methods.agent.session.resume, Raw, ({ params }) => {
      const session = options.sessions.get(String(params.sessionId));
      if (!session) throw new RequestError(-32002, `Unknown session ${String(params.sessionId)}`);
      bind(session, linked(), acpDeclarations(params));
      return {};
    })
    .onRequest(methods.agent.session.load, Raw, ({ params }) => {
      const session = options.sessions.get(String(params.sessionId));
      if (!session) throw new RequestError(-32002, `Unknown session ${String(params.sessionId)}`);
      bind(session, linked(), acpDeclarations(params));
      return {};
    })
    .onRequest(methods.agent.session.prompt, async ({ params }) => {
      const session = options.sessions.get(params.sessionId);
      if (!session) throw new RequestError(-32002, `Unknown session ${params.sessionId}`);
      if (session.client !== linked())
        throw RequestError.invalidRequest(undefined, 'Resume the session on this connection first');
      const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
      const messageId = params._meta?.[MESSAGE_ID_META];
      if (typeof messageId === 'string') {
        const seen = session.delivered.get(messageId);
        if (seen) {
          options.log(`dropped a repeat of message ${messageId.slice(0, 8)}`);
          return seen;
        }
        const answer = runTurn(session, text);
        session.delivered.set(messageId, answer);
        options.sessions.save();
        return answer;
      }
      return runTurn(session, text);
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      options.sessions.get(params.sessionId)?.turn?.abort();
    })
    .onNotification(methods.agent.mcp.message, Raw, (context) => {
      const { params } = context;
      if ('serverId' in params) return mcpCaller.handleNotification(context as never);
      if (params.method === 'notifications/tools/list_changed') {
        for (const servers of panelServers.values()) for (const server of servers) server.invalidate();
      }
    });
}
