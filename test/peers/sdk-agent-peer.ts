/**
 * A second broker peer, written with the ACP SDK's own agent side and server transport (not the
 * project's broker): configurable session capabilities, scripted turns, and ACP-SDK-binding tool calls
 * through the SDK's McpOverAcpCaller. Tests use it to check the panel against someone else's code.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  agent,
  isMcpServerAcp,
  McpOverAcpCaller,
  methods,
  RequestError,
  type AgentContext,
  type McpServerAcpDeclaration,
} from '@agentclientprotocol/sdk/unstable';
import { AcpServer } from '@agentclientprotocol/sdk/experimental/server';
import { createNodeWebSocketUpgradeHandler } from '@agentclientprotocol/sdk/experimental/node';
import { WebSocketServer } from 'ws';

export interface PeerOptions {
  resume?: boolean;
  load?: boolean;
  /** Advertise prompt de-duplication (this peer never de-duplicates, so tests can see repeats). */
  claimDedup?: boolean;
  /** Offer slash commands this many ms after answering session/new, as real agents do at once. */
  commandsAfterNewMs?: number;
  /** On session/load, replay the session's history and offer slash commands before answering, as ACP asks. */
  replayOnLoad?: boolean;
}

export interface ReceivedPrompt {
  sessionId: string;
  text: string;
  messageId: unknown;
}

export interface SdkPeer {
  url: string;
  /** Sends one MCP request to the n-th acp server the session declared (the ACP SDK binding). */
  mcp(
    sessionId: string,
    serverIndex: number,
    method: string,
    params?: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<unknown>;
  received: ReceivedPrompt[];
  sessionMethods: string[];
  /** Declarations of acp MCP servers per session, as the peer saw them. */
  declared: Map<string, McpServerAcpDeclaration[]>;
  /** Forgets every session, as a broker restarted without its state would. */
  forgetSessions(): void;
  close(): Promise<void>;
}

function acpOnly(servers: unknown[] | undefined): McpServerAcpDeclaration[] {
  return (servers ?? []).filter((s): s is McpServerAcpDeclaration => isMcpServerAcp(s));
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });

export async function startSdkPeer(options: PeerOptions = {}): Promise<SdkPeer> {
  const received: ReceivedPrompt[] = [];
  const sessionMethods: string[] = [];
  const declared = new Map<string, McpServerAcpDeclaration[]>();
  const turns = new Map<string, AbortController>();
  const caller = new McpOverAcpCaller({ clientInfo: { name: 'sdk-peer', version: '1' } });
  const known = new Set<string>();
  /** The connection-lifetime client context of each session's socket. */
  const clients = new Map<string, AgentContext>();
  let socketClient: AgentContext | undefined;

  const say = (client: AgentContext, sessionId: string, text: string) =>
    client.notify('session/update', {
      sessionId,
      update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } },
    });

  const createAgent = () =>
    agent({ name: 'sdk-peer' })
      .onConnect((connection) => {
        socketClient = connection.client;
      })
      .onRequest(methods.agent.initialize, () => ({
        protocolVersion: 1,
        agentCapabilities: {
          loadSession: options.load ?? false,
          ...(options.resume ? { sessionCapabilities: { resume: {} } } : {}),
          mcpCapabilities: { acp: true },
        },
        ...(options.claimDedup ? { _meta: { 'tabwright/dropsRepeatedPrompts': true } } : {}),
      }))
      .onRequest(methods.agent.session.new, ({ params }) => {
        const sessionId = randomUUID();
        known.add(sessionId);
        if (socketClient) clients.set(sessionId, socketClient);
        sessionMethods.push('session/new');
        declared.set(sessionId, acpOnly(params.mcpServers));
        const client = socketClient;
        if (options.commandsAfterNewMs !== undefined && client) {
          setTimeout(
            () =>
              void client.notify('session/update', {
                sessionId,
                update: {
                  sessionUpdate: 'available_commands_update',
                  availableCommands: [{ name: 'review', description: 'Review the open change' }],
                },
              }),
            options.commandsAfterNewMs,
          );
        }
        return { sessionId };
      })
      .onRequest(methods.agent.session.resume, ({ params }) => {
        sessionMethods.push('session/resume');
        if (!known.has(params.sessionId)) throw new RequestError(-32002, 'Resource not found');
        declared.set(params.sessionId, acpOnly(params.mcpServers));
        if (socketClient) clients.set(params.sessionId, socketClient);
        return {};
      })
      .onRequest(methods.agent.session.load, async ({ params, client }) => {
        sessionMethods.push('session/load');
        if (!known.has(params.sessionId)) throw new RequestError(-32002, 'Resource not found');
        declared.set(params.sessionId, acpOnly(params.mcpServers));
        if (socketClient) clients.set(params.sessionId, socketClient);
        if (options.replayOnLoad) {
          const { sessionId } = params;
          await client.notify('session/update', {
            sessionId,
            update: { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'what broke?' } },
          });
          await say(client, sessionId, 'the build, at step 3');
          await client.notify('session/update', {
            sessionId,
            update: {
              sessionUpdate: 'available_commands_update',
              availableCommands: [{ name: 'review', description: 'Review the open change' }],
            },
          });
        }
        return {};
      })
      .onNotification(methods.agent.session.cancel, ({ params }) => turns.get(params.sessionId)?.abort())
      .onNotification(methods.agent.mcp.message, caller.handleNotification)
      .onRequest(methods.agent.session.prompt, async ({ params, client }) => {
        const text = params.prompt.map((block) => (block.type === 'text' ? block.text : '')).join('');
        received.push({ sessionId: params.sessionId, text, messageId: params._meta?.['tabwright/messageId'] });
        const controller = new AbortController();
        turns.set(params.sessionId, controller);
        const signal = controller.signal;
        const [command, ...rest] = text.trim().split(/\s+/);
        try {
          switch (command) {
            case 'stream': {
              const [count = '10', delay = '20'] = rest;
              for (let i = 1; i <= Number(count) && !signal.aborted; i++) {
                await say(client, params.sessionId, `line ${i}\n`);
                await sleep(Number(delay), signal);
              }
              break;
            }
            case 'silent':
              await sleep(Number(rest[0] ?? '1000'), signal);
              await say(client, params.sessionId, 'done thinking');
              break;
            case 'ask': {
              const answer = await client.request('session/request_permission', {
                sessionId: params.sessionId,
                toolCall: { toolCallId: randomUUID(), title: rest.join(' ') || 'do the thing' },
                options: [
                  { optionId: 'yes', name: 'Allow', kind: 'allow_once' },
                  { optionId: 'always', name: 'Always allow', kind: 'allow_always' },
                  { optionId: 'no', name: 'Reject', kind: 'reject_once' },
                ],
              });
              await say(
                client,
                params.sessionId,
                `answer: ${answer.outcome.outcome === 'selected' ? answer.outcome.optionId : 'cancelled'}`,
              );
              break;
            }
            case 'call': {
              const [server] = declared.get(params.sessionId) ?? [];
              if (!server) throw new RequestError(-32000, 'no acp server declared');
              const [tool = '', json = '{}'] = [rest[0], rest.slice(1).join(' ')];
              const outcome = await caller.request(
                client,
                server.serverId,
                'tools/call',
                { name: tool, arguments: JSON.parse(json || '{}') },
                { signal },
              );
              await say(client, params.sessionId, JSON.stringify(outcome));
              break;
            }
            default:
              await say(client, params.sessionId, `echo: ${text}`);
          }
        } finally {
          turns.delete(params.sessionId);
        }
        return { stopReason: signal.aborted ? 'cancelled' : 'end_turn' };
      });

  const acp = new AcpServer({ createAgent });
  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (protocols) => (protocols.has('acp.v1') ? 'acp.v1' : false),
  });
  const server: Server = createServer((_req, res) => res.writeHead(200).end('sdk peer'));
  server.on('upgrade', createNodeWebSocketUpgradeHandler(acp, wss as never));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}/acp`,
    async mcp(sessionId, serverIndex, method, params, signal) {
      const client = clients.get(sessionId);
      const server = declared.get(sessionId)?.[serverIndex];
      if (!client || !server) throw new Error(`no session ${sessionId} or server ${serverIndex}`);
      return caller.request(client, server.serverId, method, params ?? {}, signal ? { signal } : {});
    },
    received,
    sessionMethods,
    declared,
    forgetSessions: () => known.clear(),
    async close() {
      await acp.close();
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
