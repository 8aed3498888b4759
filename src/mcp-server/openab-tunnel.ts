/**
 * The OpenAB tunnel, OpenAB's contract: `mcp/connect {acpId}` opens a connection to a declared
 * server, `mcp/message {connectionId, method, params?}` carries one flattened inner MCP message
 * (the outer JSON-RPC id correlates), `mcp/disconnect` closes it and `mcp/cancel {requestId}`
 * aborts a call by its outer id.
 */
import { RequestError } from '@agentclientprotocol/sdk/unstable';
import { isJsonObject, PARAMS_NOT_OBJECT } from '../contract/acp';
import { answerMcpRequest, McpMethodError, type ToolServer } from './mcp-core';

export interface DeclaredServer {
  /** The uuid declared as `id` (and `serverId`) in the session's `mcpServers`. */
  readonly acpId: string;
  readonly server: ToolServer;
}

export interface OpenAbTunnelOptions {
  /** The servers declared to the agent on this socket; only these can be connected to. */
  declared(): readonly DeclaredServer[];
  mintConnectionId(): string;
  /** Every call finishes or aborts before OpenAB's 180 s tunnel timeout. */
  deadlineMs: number;
}

type JsonRpcId = string | number | null;

function record(params: unknown): Record<string, unknown> {
  if (!isJsonObject(params)) throw RequestError.invalidParams(undefined, PARAMS_NOT_OBJECT);
  return params;
}

function idKey(id: JsonRpcId): string {
  return typeof id === 'string' ? `s:${id}` : `n:${String(id)}`;
}

export class OpenAbTunnel {
  readonly #connections = new Map<string, DeclaredServer>();
  readonly #inflight = new Map<string, AbortController>();

  constructor(private readonly options: OpenAbTunnelOptions) {}

  connect(params: unknown): { connectionId: string } {
    const { acpId } = record(params);
    if (typeof acpId !== 'string') throw RequestError.invalidParams(undefined, 'mcp/connect needs acpId');
    const declared = this.options.declared().find((entry) => entry.acpId === acpId);
    if (!declared) throw RequestError.invalidParams({ acpId }, `No MCP server was declared with id ${acpId}`);
    const connectionId = this.options.mintConnectionId();
    this.#connections.set(connectionId, declared);
    return { connectionId };
  }

  disconnect(params: unknown): Record<string, never> {
    const { connectionId } = record(params);
    if (typeof connectionId === 'string') this.#connections.delete(connectionId);
    return {};
  }

  /** Aborts the call whose outer request id is given; unknown ids change nothing. */
  cancel(params: unknown): void {
    const { requestId } = (params ?? {}) as Record<string, unknown>;
    if (typeof requestId !== 'string' && typeof requestId !== 'number') return;
    this.#inflight.get(idKey(requestId))?.abort(new Error('cancelled by the agent'));
  }

  async message(params: unknown, outerId: JsonRpcId, signal: AbortSignal): Promise<unknown> {
    const { connectionId, method, params: inner } = record(params);
    if (typeof connectionId !== 'string' || !this.#connections.has(connectionId)) {
      throw RequestError.invalidParams({ connectionId }, `Unknown connectionId ${String(connectionId)}`);
    }
    if (typeof method !== 'string' || method === '') {
      throw RequestError.invalidParams(undefined, 'mcp/message needs a method');
    }
    const key = idKey(outerId);
    if (this.#inflight.has(key)) throw RequestError.invalidRequest({ id: outerId }, 'Duplicate request id');
    const { server } = this.#connections.get(connectionId)!;
    const controller = new AbortController();
    const deadline = setTimeout(
      () => controller.abort(new Error(`the call ran past the ${this.options.deadlineMs / 1000} s limit`)),
      this.options.deadlineMs,
    );
    const onAbort = () => controller.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    this.#inflight.set(key, controller);
    try {
      return await answerMcpRequest(server, method, inner, {
        signal: controller.signal,
        requestId: String(outerId),
      });
    } catch (error) {
      if (error instanceof McpMethodError) throw new RequestError(error.code, error.message, error.data);
      throw error;
    } finally {
      clearTimeout(deadline);
      signal.removeEventListener('abort', onAbort);
      this.#inflight.delete(key);
    }
  }

  /** Forwarded notifications (e.g. `notifications/initialized`) need no reply and change nothing. */
  notification(params: unknown): void {
    void params;
  }

  /** Open connection ids to the server declared as `acpId`, for `list_changed`. */
  connectionsTo(acpId: string): string[] {
    return [...this.#connections].filter(([, entry]) => entry.acpId === acpId).map(([id]) => id);
  }

  get openConnections(): number {
    return this.#connections.size;
  }

  /** The socket is gone: abort every call and forget every connection. */
  close(): void {
    for (const controller of this.#inflight.values()) controller.abort(new Error('the connection closed'));
    this.#inflight.clear();
    this.#connections.clear();
  }
}
