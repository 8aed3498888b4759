/**
 * An organisation's audit collector, as small as the contract in docs/operators.md allows: it
 * answers the CORS preflight for the extension's origin, checks the bearer token, and records
 * every line it is sent. While "down" it answers 503 to everything, the preflight included.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ForwardLine } from '../../src/audit-forward/plan';

export interface AuditCollector {
  url: string;
  origin: string;
  /** Every line of every accepted POST, in the order received (repeats included). */
  lines: ForwardLine[];
  /** Method and what was asked of each request, accepted or not. */
  requests: Array<{ method: string; requestHeaders?: string; authorization?: string }>;
  up(): void;
  close(): Promise<void>;
}

const body = (request: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });

export async function startAuditCollector(options: { token: string; extensionId: string }): Promise<AuditCollector> {
  const allowed = `chrome-extension://${options.extensionId}`;
  const lines: ForwardLine[] = [];
  const requests: AuditCollector['requests'] = [];
  let down = true;
  const server = createServer(async (request, response) => {
    requests.push({
      method: request.method ?? '',
      ...(request.headers['access-control-request-headers']
        ? { requestHeaders: request.headers['access-control-request-headers'] }
        : {}),
      ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}),
    });
    if (down) return void response.writeHead(503).end();
    const cors = { 'Access-Control-Allow-Origin': allowed, Vary: 'Origin' };
    if (request.method === 'OPTIONS') {
      const fromExtension = request.headers.origin === allowed;
      return void response
        .writeHead(fromExtension ? 204 : 403, {
          ...(fromExtension ? cors : {}),
          'Access-Control-Allow-Methods': 'POST',
          'Access-Control-Allow-Headers': 'Authorization, Content-Type',
        })
        .end();
    }
    if (request.method !== 'POST') return void response.writeHead(405, cors).end();
    if (request.headers.authorization !== `Bearer ${options.token}`) return void response.writeHead(401, cors).end();
    if (request.headers['content-type'] !== 'application/x-ndjson') return void response.writeHead(415, cors).end();
    const text = await body(request);
    for (const line of text.split('\n').filter(Boolean)) lines.push(JSON.parse(line) as ForwardLine);
    response.writeHead(204, cors).end();
  });
  // [::1]: an origin the test build holds no host permission for, so the extension's fetch is held to CORS.
  await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
  const origin = `http://[::1]:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/ingest`,
    origin,
    lines,
    requests,
    up: () => void (down = false),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
