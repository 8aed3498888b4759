/**
 * Serves `test/fixtures/` on a free loopback port. The same server answers as
 * http://127.0.0.1:PORT (allowed in tests) and http://localhost:PORT (a different origin, left
 * out of the allowed sites), so "allowed" and "not allowed" pages come from one process.
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';
import { ROOT } from './harness';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

export type Route = (request: IncomingMessage, response: ServerResponse) => boolean | Promise<boolean>;

export interface FixtureServer {
  port: number;
  /** http://127.0.0.1:PORT */
  allowed: string;
  /** http://localhost:PORT — another origin on the same server */
  other: string;
  url(path: string): string;
  close(): Promise<void>;
}

/** The demo pages `npm start` opens double as the default fixtures (`/index.html`, `/second.html`). */
const DEMO = join(ROOT, 'demo');

async function readFirst(directories: string[], path: string): Promise<{ file: string; body: Buffer } | 'forbidden'> {
  for (const directory of directories) {
    const file = normalize(join(directory, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(directory)) return 'forbidden';
    try {
      return { file, body: await readFile(file) };
    } catch {
      // not in this directory
    }
  }
  throw new Error('not found');
}

export async function startFixtureServer(
  routes: Route[] = [],
  directory = join(ROOT, 'test/fixtures'),
): Promise<FixtureServer> {
  const server = createServer(async (request, response) => {
    for (const route of routes) if (await route(request, response)) return;
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://fixture').pathname);
    try {
      const found = await readFirst([directory, DEMO], path);
      if (found === 'forbidden') {
        response.writeHead(403).end();
        return;
      }
      const { file, body } = found;
      response.writeHead(200, {
        'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
        'cache-control': 'no-store',
      });
      response.end(body);
    } catch {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const allowed = `http://127.0.0.1:${port}`;
  return {
    port,
    allowed,
    other: `http://localhost:${port}`,
    url: (path) => `${allowed}${path.startsWith('/') ? path : `/${path}`}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
