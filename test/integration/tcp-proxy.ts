/**
 * A loopback TCP relay that can go silent: `freeze()` stops reading in both directions on the
 * connections it carries, so the panel's socket stays open but nothing gets through — a half-open
 * connection, as a sleeping laptop or a dead NAT entry produces.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  port: number;
  urlFor(wsUrl: string): string;
  freeze(): void;
  thaw(): void;
  /** Only connections opened from now on are frozen or not; existing ones keep their state. */
  freezeNew(on: boolean): void;
  connections(): number;
  /** Cuts every carried connection at once, as a network failure would. */
  dropAll(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(upstreamPort: number): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>();
  let frozenNew = false;
  const setFrozen = ([a, b]: [Socket, Socket], frozen: boolean) => {
    if (frozen) {
      a.unpipe(b);
      b.unpipe(a);
      a.pause();
      b.pause();
    } else {
      a.pipe(b);
      b.pipe(a);
    }
  };
  const server: Server = createServer((client) => {
    const upstream = connect(upstreamPort, '127.0.0.1');
    const pair: [Socket, Socket] = [client, upstream];
    pairs.add(pair);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      pairs.delete(pair);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    setFrozen(pair, frozenNew);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    urlFor: (wsUrl) => wsUrl.replace(/:\d+\//, `:${port}/`),
    freeze: () => pairs.forEach((pair) => setFrozen(pair, true)),
    thaw: () => pairs.forEach((pair) => setFrozen(pair, false)),
    freezeNew: (on) => void (frozenNew = on),
    connections: () => pairs.size,
    dropAll: () => {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      pairs.clear();
    },
    close: async () => {
      for (const [a, b] of pairs) {
        a.destroy();
        b.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
