/**
 * An ACP `Stream` over one accepted WebSocket. Malformed frames are answered with a JSON-RPC
 * error and dropped — they never reach the agent and never crash the broker. A method-bearing
 * frame over 1 MiB is refused; ws itself closes the socket on a frame over 8 MiB. With a
 * translator, the SDK's cancellation of a OpenAB tunnel call leaves as OpenAB's `mcp/cancel`.
 */
import type { AnyMessage, Stream } from '@agentclientprotocol/sdk';
import type { WebSocket } from 'ws';
import { MAX_METHOD_FRAME_BYTES } from '../src/contract/acp';
import type { TunnelCancelTranslator } from './tunnel-cancel';

type Json = Record<string, unknown>;

function errorFrame(id: unknown, code: number, message: string): string {
  const safeId = typeof id === 'string' || typeof id === 'number' ? id : null;
  return JSON.stringify({ jsonrpc: '2.0', id: safeId, error: { code, message } });
}

export function socketStream(
  socket: WebSocket,
  log: (line: string) => void = () => undefined,
  cancels?: TunnelCancelTranslator,
): Stream {
  const send = (text: string) => {
    if (socket.readyState === socket.OPEN) socket.send(text);
  };
  const readable = new ReadableStream<AnyMessage>({
    start(controller) {
      socket.on('message', (data, isBinary) => {
        if (isBinary) return send(errorFrame(null, -32600, 'Binary frames are not supported'));
        const text = data.toString();
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          return send(errorFrame(null, -32700, 'Parse error: the frame is not JSON'));
        }
        if (typeof value !== 'object' || value === null || Array.isArray(value)) {
          return send(errorFrame(null, -32600, 'Invalid request: expected one JSON-RPC object'));
        }
        const message = value as Json;
        if (message.jsonrpc !== '2.0') {
          return send(errorFrame(message.id, -32600, 'Invalid request: jsonrpc must be "2.0"'));
        }
        if ('method' in message && typeof message.method !== 'string') {
          return send(errorFrame(message.id, -32600, 'Invalid request: method must be a string'));
        }
        if (typeof message.method === 'string' && Buffer.byteLength(text) > MAX_METHOD_FRAME_BYTES) {
          log(`refused a ${Buffer.byteLength(text)}-byte ${message.method} frame`);
          if ('id' in message)
            send(errorFrame(message.id, -32600, 'Frame too large: method frames are limited to 1 MiB'));
          return;
        }
        if (!('method' in message) && !('id' in message)) {
          return send(errorFrame(null, -32600, 'Invalid request: neither a call nor a response'));
        }
        cancels?.inbound(message as AnyMessage);
        controller.enqueue(message as AnyMessage);
      });
      socket.on('close', () => {
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
      socket.on('error', () => undefined);
    },
    cancel() {
      socket.close();
    },
  });
  const writable = new WritableStream<AnyMessage>({
    write(message) {
      send(JSON.stringify(cancels ? cancels.outbound(message) : message));
    },
    close() {
      socket.close();
    },
    abort() {
      socket.terminate();
    },
  });
  return { readable, writable };
}
