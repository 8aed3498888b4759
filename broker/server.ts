/**
 * The local broker's HTTP server: `GET /acp` upgrades to the ACP WebSocket after the Host,
 * Origin, subprotocol and bearer checks; `/mcp` (and `/mcp/<session>`) serves the attached
 * panel's tools over Streamable-HTTP MCP after the Host, Origin and bearer-header checks, and only
 * when the broker has a token; `GET /` answers plainly. An extension it refuses is told why in a
 * close code (src/contract/refusals.ts), since a browser cannot read an HTTP refusal. Who is admitted is decided in upgrade-policy.ts: the broker's token (the
 * operator's) opens `/acp`, `/mcp` and every `/mcp/<session>`; a session's credential, the one its
 * agent is given, opens only that session's `/mcp/<session>`.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { createAcpHost } from './acp-host';
import { agentEnvironment } from './agent-launch';
import { AgentPassthrough } from './agent-passthrough';
import { demoAgent } from './demo-backend';
import { parseExtensionIds, TEST_BUILD_EXTENSION_ID } from './extension-ids';
import type { FrontedAgent } from './fronted-agent';
import { MAX_INBOUND_FRAME_BYTES } from '../src/contract/acp';
import { FIRST_LISTING_WAIT_MS, LISTING_TAKE_IN_MS } from './limits';
import { maskedAgent } from './masked-agent';
import { jsonRpcError, McpHttpEndpoint, notFound } from './mcp-http';
import { bridgeCommand } from './mcp-stdio-bridge';
import type { Dialect } from './panel-tools';
import { maskValues, secretMask } from './secret-mask';
import { SessionStore } from './sessions';
import { socketStream } from './socket-stream';
import { ToolCatalog } from './tool-catalog';
import { TunnelCancelTranslator } from './tunnel-cancel';
import {
  ACP_SUBPROTOCOL,
  judgeMcpBearer,
  judgeRequest,
  judgeUpgrade,
  parseProtocols,
  type Admission,
} from './upgrade-policy';

export interface BrokerOptions {
  port?: number;
  host?: string;
  /**
   * Bearer token; empty means none: then only the admitted extensions may connect, `/mcp` is off
   * and no agent command may be fronted (loopback only).
   */
  token: string;
  /** Extension ids admitted besides the test build's (`--extension-id`). */
  extensionIds?: readonly string[];
  dialect?: Dialect;
  stateFile?: string;
  chunkDelayMs?: number;
  version?: string;
  log?: (line: string) => void;
  /** A stdio ACP agent command to front instead of the demo agent (run through the shell). */
  agentCommand?: string;
  /** The working directory agent sessions run in (default: the broker's). */
  agentCwd?: string;
  /** Bound on each tunnelled call; the contract's 180 s unless a test shortens it. */
  tunnelTimeoutMs?: number;
  /** How long an agent process waits for its panel to come back before it is stopped. */
  detachedAgentTtlMs?: number;
  /** How long a cancelled turn may take to end before the broker stops waiting (15 s). */
  agentCancelGraceMs?: number;
  /** Open MCP client sessions kept per endpoint (see limits.ts). */
  mcpSessionLimit?: number;
}

export interface RunningBroker {
  readonly port: number;
  /** The panel's broker URL (`ws://…/acp`). */
  readonly url: string;
  /** The MCP endpoint for MCP clients (`http://…/mcp`). */
  readonly mcpUrl: string;
  readonly sessions: SessionStore;
  /** The MCP endpoint bound to one broker session (what a fronted agent is given, with its credential). */
  mcpUrlFor(sessionId: string): string;
  /**
   * Admits one more extension from now on (for a launcher that learns the id of the unpacked
   * extension it loaded only after Chromium is up).
   */
  admitExtension(id: string): void;
  /** Drops every panel socket at once, as a network failure would. */
  dropConnections(): void;
  close(): Promise<void>;
}

function refuse(socket: Duplex, status: number, reason: string): void {
  const text = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[status] ?? 'Error';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${reason}\n`);
}

/** Replaces every occurrence of the token, so nothing relayed to a log can leak it. */
export function redactor(token: string): (text: string) => string {
  if (!token) return (text) => text;
  return (text) => maskValues(text, [token]);
}

/** `/mcp` → '', `/mcp/<id>` → id, anything else → undefined. */
export function mcpRoute(path: string): string | undefined {
  if (path === '/mcp' || path === '/mcp/') return '';
  const match = /^\/mcp\/([\w-]{1,100})\/?$/.exec(path);
  return match ? match[1] : undefined;
}

export async function startBroker(options: BrokerOptions): Promise<RunningBroker> {
  // Without a token anything on this machine that reaches /acp could drive a coding agent.
  if (options.agentCommand && !options.token) throw new Error('Fronting an agent command needs a token');
  const sessions = new SessionStore(options.stateFile);
  // The one mask for everything relayed from an agent: the token, every live session's credential,
  // and the keys in the environment the agent starts with.
  const mask = secretMask(
    (text) => maskValues(text, [options.token, ...sessions.all().map((session) => session.credential)]),
    process.env,
    options.agentCommand,
  );
  const log = (line: string) => options.log?.(mask(line));
  const host = options.host ?? '127.0.0.1';
  const admitted = new Set([TEST_BUILD_EXTENSION_ID, ...parseExtensionIds(options.extensionIds ?? [])]);
  const admission: Admission = { token: options.token || undefined, extensionIds: admitted, extraHosts: [host] };
  const version = options.version ?? '0.0.0';
  const sockets = new Set<WebSocket>();
  let httpBase = '';

  const latest = new ToolCatalog(() => sessions.latestAttached(), log);
  const perSession = new Map<string, ToolCatalog>();
  const catalogFor = (key: string): ToolCatalog | undefined => {
    if (key === '') return latest;
    if (!sessions.get(key)) return undefined;
    let catalog = perSession.get(key);
    if (!catalog) {
      catalog = new ToolCatalog(() => sessions.get(key), log, { bareBrowserNames: true });
      perSession.set(key, catalog);
    }
    return catalog;
  };
  const mcp = new McpHttpEndpoint({
    version,
    catalogFor,
    log,
    ...(options.mcpSessionLimit ? { maxSessions: options.mcpSessionLimit } : {}),
  });
  sessions.onChange((session) => {
    mcp.toolsChanged(session.id);
    mcp.toolsChanged('');
  });
  // A session that ends takes its endpoint with it: its agent's open MCP sessions are closed too.
  sessions.onForget((session) => {
    perSession.delete(session.id);
    void mcp.closeEndpoint(session.id);
  });

  const fronted: FrontedAgent = options.agentCommand
    ? new AgentPassthrough({
        command: options.agentCommand,
        cwd: options.agentCwd ?? process.cwd(),
        // Read when each agent starts, as a shell would: a variable set after the broker started counts.
        environment: () => agentEnvironment(process.env, options.token),
        version,
        sessions,
        // The agent gets its session's own credential, never the broker's token.
        endpointFor: (session) => ({
          url: `${httpBase}/mcp/${session.id}`,
          token: session.credential,
          bridge: bridgeCommand(),
        }),
        mask,
        log,
        toolsListed: (session) => mcp.whenListed(session.id, FIRST_LISTING_WAIT_MS, LISTING_TAKE_IN_MS),
        ...(options.detachedAgentTtlMs !== undefined ? { detachedTtlMs: options.detachedAgentTtlMs } : {}),
        ...(options.agentCancelGraceMs !== undefined ? { cancelGraceMs: options.agentCancelGraceMs } : {}),
      })
    : demoAgent({ version, chunkDelayMs: options.chunkDelayMs ?? 8 });
  const agent = maskedAgent(fronted, mask);

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_INBOUND_FRAME_BYTES,
    handleProtocols: (protocols) => (protocols.has(ACP_SUBPROTOCOL) ? ACP_SUBPROTOCOL : false),
  });

  const serveMcp = (request: IncomingMessage, response: ServerResponse, key: string) => {
    const verdict = judgeMcpBearer(
      { host: request.headers.host, origin: request.headers.origin, authorization: request.headers.authorization },
      admission,
      key,
      sessions.all().map(({ id, credential }) => ({ sessionId: id, credential })),
    );
    if (!verdict.ok) {
      log(`refused an MCP request: ${verdict.reason}`);
      const challenge: Record<string, string> =
        verdict.status === 401 ? { 'www-authenticate': 'Bearer realm="tabwright"' } : {};
      return jsonRpcError(response, verdict.status, -32001, verdict.reason, challenge);
    }
    mcp.handle(request, response, key).catch((error: unknown) => {
      log(`MCP request failed: ${(error as Error).message}`);
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain' });
      response.end();
    });
  };

  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://broker').pathname;
    const key = mcpRoute(path);
    if (key !== undefined) return serveMcp(request, response, key);
    if (path !== '/' && path !== '/acp') return notFound(response, path);
    const verdict = judgeRequest({ host: request.headers.host, origin: request.headers.origin }, admission);
    if (!verdict.ok) {
      response.writeHead(verdict.status, { 'content-type': 'text/plain' }).end(`${verdict.reason}\n`);
      return;
    }
    response
      .writeHead(200, { 'content-type': 'text/plain' })
      .end('Tabwright broker. Connect a panel to /acp; MCP clients use /mcp.\n');
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const verdict = judgeUpgrade(
      {
        host: request.headers.host,
        origin: request.headers.origin,
        protocols: parseProtocols(request.headers['sec-websocket-protocol']),
        path: new URL(request.url ?? '/', 'http://broker').pathname,
      },
      admission,
    );
    if (!verdict.ok) {
      log(`refused a connection: ${verdict.reason}`);
      if (verdict.closeCode === undefined) return refuse(socket, verdict.status, verdict.reason);
      // An extension cannot read an HTTP refusal: it opens and hears why at once, and is never read from.
      const { closeCode, closeReason } = verdict;
      return wss.handleUpgrade(request, socket, head, (ws) => ws.close(closeCode, closeReason));
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      log('panel connected');
      const app = createAcpHost({
        sessions,
        dialect: options.dialect ?? 'a',
        agent,
        ...(options.tunnelTimeoutMs ? { tunnelTimeoutMs: options.tunnelTimeoutMs } : {}),
        log,
      });
      const connection = app.connect(socketStream(ws, log, new TunnelCancelTranslator()));
      ws.on('close', (code) => {
        sockets.delete(ws);
        connection.close();
        sessions.detachAll(connection.client);
        log(`panel disconnected (${code})`);
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  httpBase = `http://${hostInUrl}:${port}`;
  return {
    port,
    url: `ws://${hostInUrl}:${port}/acp`,
    mcpUrl: `${httpBase}/mcp`,
    sessions,
    mcpUrlFor: (sessionId) => `${httpBase}/mcp/${sessionId}`,
    admitExtension(id) {
      for (const valid of parseExtensionIds([id])) admitted.add(valid);
    },
    dropConnections() {
      for (const ws of sockets) ws.terminate();
    },
    async close() {
      // Panels hear why (1001, going away) and reconnect later; a socket that does not finish the
      // closing handshake promptly is cut.
      await Promise.all(
        [...sockets].map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === ws.CLOSED) return resolve();
              const cut = setTimeout(() => {
                ws.terminate();
                resolve();
              }, 1_000);
              ws.once('close', () => {
                clearTimeout(cut);
                resolve();
              });
              ws.close(1001, 'broker shutting down');
            }),
        ),
      );
      wss.close();
      await Promise.all([mcp.close(), agent.close()]);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
