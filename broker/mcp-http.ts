/**
 * `/mcp`: the panel's tools as a normal Streamable-HTTP MCP server, for any MCP client and for
 * agents the broker fronts. Built on `@modelcontextprotocol/sdk` (the stateful revisions of
 * src/contract/mcp.ts); each client session gets its own SDK server and transport. Every call goes through
 * the panel's tunnel, so act mode, the allowlist and confirmations apply there as for any agent.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, isInitializeRequest, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { BROWSER_INSTRUCTIONS } from '../src/contract/browser-tools';
import { MCP_NEWEST_REVISION, MCP_STATEFUL_REVISIONS } from '../src/contract/mcp';
import { MAX_HTTP_BODY_BYTES, MAX_MCP_HTTP_SESSIONS } from './limits';
import type { ToolCatalog } from './tool-catalog';

/** The revision to answer with: the client's when we serve it, else our newest (the client decides). */
export function negotiateRevision(requested: unknown): string {
  return (MCP_STATEFUL_REVISIONS as readonly unknown[]).includes(requested)
    ? (requested as string)
    : MCP_NEWEST_REVISION;
}

interface ClientSession {
  readonly server: Server;
  readonly transport: StreamableHTTPServerTransport;
  /** Which catalog the session was opened on ('' for `/mcp`, a broker session id for `/mcp/<id>`). */
  readonly catalogKey: string;
  lastUsed: number;
  /** The client has been answered a tool listing. */
  listed: boolean;
  readonly openedAt: number;
}

export interface McpHttpOptions {
  version: string;
  /** The catalog behind `/mcp` (key '') or `/mcp/<broker session id>`; undefined when there is none. */
  catalogFor(key: string): ToolCatalog | undefined;
  log(line: string): void;
  maxSessions?: number;
}

export function jsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  response
    .writeHead(status, { ...headers, 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } }));
}

/**
 * Anything the broker does not serve is a 404, so MCP clients probing for OAuth metadata
 * (`/.well-known/…`) learn there is none instead of parsing a page; under `/mcp` the answer has
 * the JSON-RPC error shape the MCP specification gives.
 */
export function notFound(response: ServerResponse, path: string): void {
  if (path === '/mcp' || path.startsWith('/mcp/')) return jsonRpcError(response, 404, -32001, `Not found: ${path}`);
  response.writeHead(404, { 'content-type': 'text/plain' }).end(`Not found: ${path}\n`);
}

async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

export class McpHttpEndpoint {
  readonly #sessions = new Map<string, ClientSession>();
  /** Waiting for the clients of a catalog to have their tool listings (see whenListed). */
  readonly #listingWaiters = new Set<{ key: string; windowMs: number; done: () => void }>();

  constructor(private readonly options: McpHttpOptions) {}

  get openSessions(): number {
    return this.#sessions.size;
  }

  /** Serves one request whose path was `/mcp` (key '') or `/mcp/<key>`; the caller checked Host, Origin and token. */
  async handle(request: IncomingMessage, response: ServerResponse, key: string): Promise<void> {
    const catalog = this.options.catalogFor(key);
    if (!catalog) return jsonRpcError(response, 404, -32001, `No broker session ${key}`);
    const sessionHeader = request.headers['mcp-session-id'];
    const sessionId = Array.isArray(sessionHeader) ? sessionHeader[0] : sessionHeader;
    const existing = sessionId ? this.#sessions.get(sessionId) : undefined;
    if (sessionId && (!existing || existing.catalogKey !== key)) {
      return jsonRpcError(response, 404, -32001, 'Session not found: initialize again');
    }

    if (request.method === 'GET' || request.method === 'DELETE') {
      if (!existing) return jsonRpcError(response, 400, -32000, 'Bad request: no Mcp-Session-Id header');
      existing.lastUsed = Date.now();
      return existing.transport.handleRequest(request, response);
    }
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
      return;
    }

    const raw = await readBody(request, MAX_HTTP_BODY_BYTES);
    if (!raw) return jsonRpcError(response, 413, -32600, 'Request too large: one MCP message may be at most 1 MiB');
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return jsonRpcError(response, 400, -32700, 'Parse error: the body is not JSON');
    }
    if (existing) {
      existing.lastUsed = Date.now();
      return existing.transport.handleRequest(request, response, body);
    }
    if (!isInitializeRequest(body)) {
      return jsonRpcError(response, 400, -32000, 'Bad request: send initialize first (no Mcp-Session-Id header)');
    }
    body.params.protocolVersion = negotiateRevision(body.params.protocolVersion);
    const session = await this.#open(key, catalog);
    await session.transport.handleRequest(request, response, body);
  }

  async #open(catalogKey: string, catalog: ToolCatalog): Promise<ClientSession> {
    await this.#makeRoom(catalogKey);
    const server = new Server(
      { name: 'tabwright-broker', title: 'Tabwright (local broker)', version: this.options.version },
      {
        capabilities: { tools: { listChanged: true } },
        instructions: BROWSER_INSTRUCTIONS,
        debouncedNotificationMethods: ['notifications/tools/list_changed'],
      },
    );
    server.setRequestHandler(ListToolsRequestSchema, async (_request, extra) => {
      const tools = await catalog.list(extra.signal);
      session.listed = true;
      this.#wakeListingWaiters();
      return { tools };
    });
    // A client of `/mcp` is a caller of its own in the panel (its tabs, its cards, its audit name), told
    // apart by this session, never by the name it gives; an agent on its `/mcp/<session>` is that agent.
    const callerId = randomUUID();
    const callerOf = () =>
      catalogKey === ''
        ? { id: callerId, label: (server.getClientVersion()?.name ?? '').trim().slice(0, 64) || 'MCP client' }
        : undefined;
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) =>
      catalog.call(request.params.name, request.params.arguments ?? {}, extra.signal, callerOf()),
    );
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#sessions.set(id, session);
        this.options.log(`MCP client connected to /mcp${catalogKey ? `/${catalogKey.slice(0, 8)}…` : ''}`);
      },
      onsessionclosed: (id) => void this.#drop(id),
    });
    const session: ClientSession = {
      server,
      transport,
      catalogKey,
      lastUsed: Date.now(),
      listed: false,
      openedAt: Date.now(),
    };
    transport.onclose = () => {
      for (const [id, entry] of this.#sessions) if (entry === session) this.#sessions.delete(id);
      this.#wakeListingWaiters();
    };
    await server.connect(transport);
    return session;
  }

  /**
   * Clients that never say goodbye would pile up: past the cap, the least recently used session of
   * the same endpoint goes, so clients of `/mcp` can never push out an agent's `/mcp/<session>`.
   */
  async #makeRoom(catalogKey: string): Promise<void> {
    const max = this.options.maxSessions ?? MAX_MCP_HTTP_SESSIONS;
    for (;;) {
      const same = [...this.#sessions].filter(([, session]) => session.catalogKey === catalogKey);
      if (same.length < max) return;
      const [oldest] = same.sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
      await this.#drop(oldest![0]);
    }
  }

  async #drop(id: string): Promise<void> {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    this.#wakeListingWaiters();
    await session.server.close().catch(() => undefined);
  }

  /**
   * Resolves once every client connected to `/mcp/<key>` has been answered a tool listing or has
   * been connected for `windowMs`, at once when no client is still within that window. Agents that
   * discover their MCP tools in the background, beside their first turn, would otherwise start a
   * turn without the browser's tools; an agent that lists only when it needs to costs a first turn
   * sent within `windowMs` of its start the rest of that window, never more. An answer sent is not
   * yet an answer the agent has taken in, so a listing that was waited for is given `graceMs` more.
   */
  whenListed(catalogKey: string, windowMs: number, graceMs = 0): Promise<void> {
    const left = this.#listingTimeLeft(catalogKey, windowMs);
    if (left <= 0) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const waiter = {
        key: catalogKey,
        windowMs,
        done: () => {
          clearTimeout(timer);
          this.#listingWaiters.delete(waiter);
          setTimeout(resolve, graceMs);
        },
      };
      const timer = setTimeout(() => {
        this.#listingWaiters.delete(waiter);
        resolve();
      }, left);
      this.#listingWaiters.add(waiter);
    });
  }

  /** How long the longest-waiting unlisted client of a catalog still has in its window (≤ 0: none). */
  #listingTimeLeft(catalogKey: string, windowMs: number): number {
    const now = Date.now();
    let left = 0;
    for (const session of this.#sessions.values()) {
      if (session.catalogKey !== catalogKey || session.listed) continue;
      left = Math.max(left, session.openedAt + windowMs - now);
    }
    return left;
  }

  #wakeListingWaiters(): void {
    for (const waiter of this.#listingWaiters) {
      if (this.#listingTimeLeft(waiter.key, waiter.windowMs) <= 0) waiter.done();
    }
  }

  /** Closes every client session of one endpoint (a broker session that ended). */
  async closeEndpoint(catalogKey: string): Promise<void> {
    const ids = [...this.#sessions].filter(([, session]) => session.catalogKey === catalogKey).map(([id]) => id);
    await Promise.all(ids.map((id) => this.#drop(id)));
  }

  /** Tells the clients of one catalog that its tool list changed. */
  toolsChanged(catalogKey: string): void {
    for (const session of this.#sessions.values()) {
      if (session.catalogKey === catalogKey) void session.server.sendToolListChanged().catch(() => undefined);
    }
  }

  async close(): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.#drop(id)));
  }
}
