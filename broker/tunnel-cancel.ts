/**
 * OpenAB's tunnel cancels a call with `mcp/cancel {requestId}` (the outer id), while the ACP SDK
 * cancels any request with `$/cancel_request`. The broker speaks OpenAB's contract, so on the way
 * out it turns the SDK's cancellation of a OpenAB-tunnel `mcp/message` into `mcp/cancel`.
 */
import type { AnyMessage, JsonRpcId } from '@agentclientprotocol/sdk';

const SDK_CANCEL = '$/cancel_request';
export const TUNNEL_CANCEL = 'mcp/cancel';

function key(id: JsonRpcId): string {
  return typeof id === 'string' ? `s:${id}` : `n:${String(id)}`;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export class TunnelCancelTranslator {
  /** Outer ids of OpenAB-tunnel calls still waiting for the panel's answer. */
  readonly #open = new Set<string>();

  /** Rewrites one outgoing message (or passes it through untouched). */
  outbound(message: AnyMessage): AnyMessage {
    const m = message as Record<string, unknown>;
    if (m.method === 'mcp/message' && 'id' in m && typeof record(m.params)?.connectionId === 'string') {
      this.#open.add(key(m.id as JsonRpcId));
      return message;
    }
    if (m.method === SDK_CANCEL && !('id' in m)) {
      const requestId = record(m.params)?.requestId as JsonRpcId | undefined;
      if (requestId !== undefined && this.#open.has(key(requestId))) {
        return { jsonrpc: '2.0', method: TUNNEL_CANCEL, params: { requestId } } as AnyMessage;
      }
    }
    return message;
  }

  /** Sees one incoming message: an answer closes the call it answers. */
  inbound(message: AnyMessage): void {
    const m = message as Record<string, unknown>;
    if (!('method' in m) && 'id' in m) this.#open.delete(key(m.id as JsonRpcId));
  }

  get openCalls(): number {
    return this.#open.size;
  }
}
