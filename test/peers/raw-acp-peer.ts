/**
 * A broker peer that speaks raw JSON-RPC over a real WebSocket, so tests control every frame:
 * exact outer ids, notifications, malformed and oversized frames. It answers the panel's
 * handshake itself (initialize, session/new|resume|load, session/prompt) and records what it gets.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

export type Frame = Record<string, unknown>;

export interface RawPeer {
  url: string;
  /** Frames received from the panel, parsed, in order. */
  inbound: Frame[];
  /** Declared MCP servers of the last session/new|resume|load. */
  declared: Array<Record<string, unknown>>;
  connected(): boolean;
  sendRaw(text: string): void;
  send(frame: Frame): void;
  /** Sends a request with the given id (or a fresh one) and resolves with the panel's response frame. */
  request(method: string, params?: unknown, id?: string | number): Promise<Frame>;
  notify(method: string, params?: unknown): void;
  waitFor(predicate: (frame: Frame) => boolean, timeoutMs?: number): Promise<Frame>;
  close(): Promise<void>;
}

export interface RawPeerOptions {
  /** Answer every session/new with this error instead of a session. */
  refuseSessions?: string;
  /** Never answer session/new (a broker stuck starting its agent). */
  ignoreSessions?: boolean;
  /** Advertise `session/resume`, as OpenAB does. */
  resume?: boolean;
  /** Never answer session/prompt and send no update (an agent still thinking about the turn). */
  holdPrompts?: boolean;
  /** Answers session/prompt instead of the plain end of turn: `send` writes a frame to the socket. */
  answerPrompt?: (id: string | number, send: (frame: Frame) => void) => void;
}

export async function startRawPeer(options: RawPeerOptions = {}): Promise<RawPeer> {
  const inbound: Frame[] = [];
  const waiters = new Set<{ predicate: (frame: Frame) => boolean; resolve: (frame: Frame) => void }>();
  let socket: WebSocket | undefined;
  let nextId = 100_000;
  let declared: Array<Record<string, unknown>> = [];

  const send = (frame: Frame) => socket?.send(JSON.stringify(frame));
  const onFrame = (frame: Frame) => {
    inbound.push(frame);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(frame)) {
        waiters.delete(waiter);
        waiter.resolve(frame);
      }
    }
    const { method, id, params } = frame as { method?: string; id?: string | number; params?: Record<string, unknown> };
    if (id === undefined || !method) return;
    switch (method) {
      case 'initialize':
        return send({
          jsonrpc: '2.0',
          id,
          result: {
            protocolVersion: 1,
            agentCapabilities: {
              loadSession: true,
              mcpCapabilities: { acp: true },
              ...(options.resume ? { sessionCapabilities: { resume: {} } } : {}),
            },
          },
        });
      case 'session/new':
      case 'session/load':
      case 'session/resume':
        if (options.ignoreSessions) return;
        if (options.refuseSessions)
          return send({ jsonrpc: '2.0', id, error: { code: -32602, message: options.refuseSessions } });
        declared = (params?.mcpServers as Array<Record<string, unknown>>) ?? [];
        return send({ jsonrpc: '2.0', id, result: method === 'session/new' ? { sessionId: 'raw-session' } : {} });
      case 'session/prompt':
        if (options.holdPrompts) return;
        if (options.answerPrompt) return options.answerPrompt(id, send);
        return send({ jsonrpc: '2.0', id, result: { stopReason: 'end_turn' } });
      default:
        return send({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
    }
  };

  const wss = new WebSocketServer({
    noServer: true,
    handleProtocols: (p) => (p.has('acp.v1') ? 'acp.v1' : false),
    maxPayload: 64 * 1024 * 1024,
  });
  const server: Server = createServer((_req, res) => res.writeHead(200).end('raw peer'));
  server.on('upgrade', (request, duplex, head) =>
    wss.handleUpgrade(request, duplex, head, (ws) => {
      socket = ws;
      ws.on('message', (data) => {
        try {
          onFrame(JSON.parse(data.toString()) as Frame);
        } catch {
          inbound.push({ unparsable: data.toString() });
        }
      });
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const waitFor = (predicate: (frame: Frame) => boolean, timeoutMs = 10_000) =>
    new Promise<Frame>((resolve, reject) => {
      const existing = inbound.find(predicate);
      if (existing) return resolve(existing);
      const waiter = { predicate, resolve };
      waiters.add(waiter);
      setTimeout(() => {
        if (waiters.delete(waiter)) reject(new Error('timed out waiting for a frame'));
      }, timeoutMs);
    });

  return {
    url: `ws://127.0.0.1:${port}/acp`,
    inbound,
    get declared() {
      return declared;
    },
    connected: () => socket?.readyState === socket?.OPEN,
    sendRaw: (text) => socket?.send(text),
    send,
    request(method, params, id = nextId++) {
      const response = waitFor((frame) => frame.id === id && !('method' in frame));
      send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
      return response;
    },
    notify: (method, params) => send({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) }),
    waitFor,
    async close() {
      for (const client of wss.clients) client.terminate();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
