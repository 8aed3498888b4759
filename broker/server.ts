/**
 * The local broker's HTTP server: `GET /acp` upgrades to the ACP WebSocket after the Host,
 * Origin, subprotocol and bearer checks; `GET /` answers plainly so a panel can tell "wrong
 * token" from "nothing listening".
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { createAcpHost } from './acp-host';
import { MAX_INBOUND_FRAME_BYTES } from './limits';
import type { Dialect } from './panel-tools';
import { SessionStore } from './sessions';
import { socketStream } from './socket-stream';
import { ACP_SUBPROTOCOL, judgeRequest, judgeUpgrade, parseProtocols } from './upgrade-policy';

export interface BrokerOptions {
  port?: number;
  host?: string;
  /** Bearer token; empty means none is required (loopback only). */
  token: string;
  dialect?: Dialect;
  stateFile?: string;
  chunkDelayMs?: number;
  version?: string;
  log?: (line: string) => void;
}

export interface RunningBroker {
  readonly port: number;
  readonly url: string;
  readonly sessions: SessionStore;
  /** Drops every panel socket at once, as a network failure would. */
  dropConnections(): void;
  close(): Promise<void>;
}

function refuse(socket: Duplex, status: number, reason: string): void {
  const text = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found' }[status] ?? 'Error';
  socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${reason}\n`);
}

export async function startBroker(options: BrokerOptions): Promise<RunningBroker> {
  const log = options.log ?? (() => undefined);
  const host = options.host ?? '127.0.0.1';
  const sessions = new SessionStore(options.stateFile);
  const sockets = new Set<WebSocket>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_INBOUND_FRAME_BYTES,
    handleProtocols: (protocols) => (protocols.has(ACP_SUBPROTOCOL) ? ACP_SUBPROTOCOL : false),
  });

  const server: Server = createServer((request, response) => {
    const verdict = judgeRequest({ host: request.headers.host, origin: request.headers.origin }, [host]);
    if (!verdict.ok) {
      response.writeHead(verdict.status, { 'content-type': 'text/plain' }).end(`${verdict.reason}\n`);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/plain' }).end('Tabwright broker. Connect a panel to /acp.\n');
  });

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const path = new URL(request.url ?? '/', 'http://broker').pathname;
    if (path !== '/acp') return refuse(socket, 404, 'Only /acp accepts WebSocket connections');
    const verdict = judgeUpgrade(
      {
        host: request.headers.host,
        origin: request.headers.origin,
        protocols: parseProtocols(request.headers['sec-websocket-protocol']),
      },
      options.token || undefined,
      [host],
    );
    if (!verdict.ok) {
      log(`refused a connection: ${verdict.reason}`);
      return refuse(socket, verdict.status, verdict.reason);
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      sockets.add(ws);
      log('panel connected');
      const app = createAcpHost({
        sessions,
        dialect: options.dialect ?? 'a',
        version: options.version ?? '0.0.0',
        chunkDelayMs: options.chunkDelayMs ?? 8,
        log,
      });
      const connection = app.connect(socketStream(ws, log));
      ws.on('close', (code) => {
        sockets.delete(ws);
        connection.close();
        log(`panel disconnected (${code})`);
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `ws://${host}:${port}/acp`,
    sessions,
    dropConnections() {
      for (const ws of sockets) ws.terminate();
    },
    async close() {
      for (const ws of sockets) ws.terminate();
      wss.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}
