/** Lets the connection see every inbound frame (any frame proves the broker is alive). */
import type { Stream } from '@agentclientprotocol/sdk/unstable';

export function tapInbound(stream: Stream, onInbound: () => void): Stream {
  return {
    writable: stream.writable,
    readable: stream.readable.pipeThrough(
      new TransformStream({
        transform(message, controller) {
          onInbound();
          controller.enqueue(message);
        },
      }),
    ),
  };
}
