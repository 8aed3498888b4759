/**
 * The ACP SDK owns the WebSocket, but the panel needs to know how it ended: whether it ever
 * opened, which subprotocol the broker chose, and the close code and reason, and to hear every
 * inbound frame as it arrives (any frame proves the broker alive, even one the SDK then rejects).
 * Wrapping the constructor handed to `createWebSocketStream` does that without reaching into the
 * SDK or adding a stream stage every message has to pass through.
 */
import type { WebSocketConstructor, WebSocketLike } from '@agentclientprotocol/sdk/experimental/ws-client';

export interface SocketObservation {
  opened: boolean;
  protocol: string;
  closeCode: number | undefined;
  closeReason: string;
  socket: WebSocketLike | undefined;
}

type AnyWebSocketConstructor = new (url: string, protocols?: string | string[], options?: unknown) => WebSocketLike;

export function observeSocket(
  Base: AnyWebSocketConstructor,
  onFrame: () => void = () => undefined,
): {
  WebSocket: WebSocketConstructor;
  observation: SocketObservation;
} {
  const observation: SocketObservation = {
    opened: false,
    protocol: '',
    closeCode: undefined,
    closeReason: '',
    socket: undefined,
  };
  function ObservedWebSocket(url: string, protocols?: string | string[], options?: unknown): WebSocketLike {
    const socket = new Base(url, protocols, options) as WebSocketLike & { protocol?: string };
    observation.socket = socket;
    socket.addEventListener?.('open', () => {
      observation.opened = true;
      observation.protocol = socket.protocol ?? '';
    });
    socket.addEventListener?.('message', onFrame);
    socket.addEventListener?.('close', (event) => {
      const { code, reason } = event as { code?: number; reason?: string };
      observation.closeCode = code;
      observation.closeReason = reason ?? '';
    });
    return socket;
  }
  return { WebSocket: ObservedWebSocket as unknown as WebSocketConstructor, observation };
}
