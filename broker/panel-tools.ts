/**
 * The broker's side of the tunnel: it calls the MCP servers a panel declared in its session, over
 * that panel's own ACP socket. The OpenAB tunnel by default, the ACP SDK binding when
 * asked. Every call is bounded by the contract's 180 s and cancellable; a call the
 * broker gives up on is cancelled in the panel too (`mcp/cancel`, see tunnel-cancel.ts).
 */
import { McpOverAcpCaller, type AgentContext } from '@agentclientprotocol/sdk/unstable';
import { MAX_METHOD_FRAME_BYTES, TUNNEL_TIMEOUT_MS } from '../src/contract/acp';
import {
  MCP_TUNNEL_REVISION,
  type CallToolResult,
  type McpTool,
  CALLER_META,
  type CallerMeta,
} from '../src/contract/mcp';

export interface AcpDeclaration {
  type: 'acp';
  name: string;
  id?: string;
  serverId?: string;
}

export type { CallToolResult, McpTool };

export type Dialect = 'a' | 'b';

/** Why a tunnelled request failed, so callers can tell the model what to do about it. */
export type TunnelFailure = 'disconnected' | 'timeout' | 'cancelled' | 'too_large' | 'refused';

export class TunnelError extends Error {
  constructor(
    message: string,
    readonly failure: TunnelFailure,
    readonly code?: number,
  ) {
    super(message);
  }
}

const caller = new McpOverAcpCaller({ clientInfo: { name: 'tabwright-broker', version: '1' } });
export const mcpCaller = caller;

/** Room left in a 1 MiB method frame for the JSON-RPC envelope around the params. */
const ENVELOPE_BYTES = 512;

export interface PanelServerOptions {
  /** Aborts when the panel's socket closes. */
  connectionSignal: AbortSignal;
  timeoutMs?: number;
}

/** One declared server reached through one panel socket. */
export class PanelServer {
  #connectionId: Promise<string> | undefined;
  #knownConnectionId: string | undefined;
  #tools: Promise<McpTool[]> | undefined;
  readonly #timeoutMs: number;

  constructor(
    private readonly client: AgentContext,
    readonly declaration: AcpDeclaration,
    private readonly dialect: Dialect,
    private readonly options: PanelServerOptions,
  ) {
    this.#timeoutMs = options.timeoutMs ?? TUNNEL_TIMEOUT_MS;
  }

  get name(): string {
    return this.declaration.name;
  }

  /** Whether a OpenAB-tunnel connection id belongs to this server (for `list_changed`). */
  owns(connectionId: string): boolean {
    return this.#knownConnectionId === connectionId;
  }

  /** Forget cached tools (after `notifications/tools/list_changed`). */
  invalidate(): void {
    this.#tools = undefined;
  }

  /**
   * One listing is shared by everyone who asks while it is under way, so it is not tied to any one
   * caller's signal: a client that gives up stops waiting, and the others still get the tools.
   */
  tools(signal?: AbortSignal): Promise<McpTool[]> {
    let listing = this.#tools;
    if (!listing) {
      const started = this.request('tools/list', undefined).then(
        (result) => (result as { tools?: McpTool[] }).tools ?? [],
      );
      started.catch(() => {
        if (this.#tools === started) this.#tools = undefined;
      });
      listing = this.#tools = started;
    }
    return signal ? untilAborted(listing, signal) : listing;
  }

  /** `caller`: the MCP client the call comes from, for the panel to keep its tabs and cards apart. */
  async call(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    caller?: CallerMeta,
  ): Promise<CallToolResult> {
    const params = { name, arguments: args, ...(caller ? { _meta: { [CALLER_META]: caller } } : {}) };
    return (await this.request('tools/call', params, signal)) as CallToolResult;
  }

  async request(method: string, params: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<unknown> {
    if (this.options.connectionSignal.aborted) throw disconnected();
    const size = Buffer.byteLength(JSON.stringify(params ?? {}));
    if (size > MAX_METHOD_FRAME_BYTES - ENVELOPE_BYTES) {
      throw new TunnelError(
        `The request is ${size} bytes; the tunnel carries at most ${MAX_METHOD_FRAME_BYTES / 1024 / 1024} MiB per call. Send smaller arguments.`,
        'too_large',
      );
    }
    const deadline = AbortSignal.timeout(this.#timeoutMs);
    const combined = AbortSignal.any([deadline, ...(signal ? [signal] : [])]);
    try {
      const result =
        this.dialect === 'b'
          ? await this.#requestB(method, params, combined)
          : await this.#requestA(method, params, combined);
      return withoutResultType(result);
    } catch (error) {
      if (this.options.connectionSignal.aborted) throw disconnected();
      if (deadline.aborted) {
        throw new TunnelError(
          `The browser did not answer within ${Math.round(this.#timeoutMs / 1000)} s; the call was cancelled.`,
          'timeout',
        );
      }
      if (signal?.aborted) throw new TunnelError('The call was cancelled.', 'cancelled');
      if (error instanceof TunnelError) throw error;
      const { code, message } = error as { code?: number; message?: string };
      throw new TunnelError(message ?? String(error), 'refused', code);
    }
  }

  async #requestB(method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<unknown> {
    const serverId = this.declaration.serverId;
    if (!serverId) {
      throw new TunnelError(
        `The panel declared ${this.name} for dialect A only, but this broker tunnels with dialect B. Set the ` +
          'agent’s dialect to B (or both) in the panel, or start the broker with --dialect a.',
        'refused',
      );
    }
    const outcome = await caller.request(this.client, serverId, method, params ?? {}, { signal });
    if ('error' in outcome) throw new TunnelError(outcome.error.message, 'refused', outcome.error.code);
    return outcome.result;
  }

  async #requestA(method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<unknown> {
    const connectionId = await this.#connect(signal);
    return this.client.request(
      'mcp/message',
      { connectionId, method, ...(params ? { params } : {}) },
      { cancellationSignal: signal, stopWaitingOnCancel: true },
    );
  }

  #connect(signal: AbortSignal): Promise<string> {
    if (!this.#connectionId) {
      const opening = (async () => {
        const bounded = { cancellationSignal: AbortSignal.timeout(this.#timeoutMs), stopWaitingOnCancel: true };
        const id = this.declaration.id ?? this.declaration.serverId;
        const { connectionId } = (await this.client.request('mcp/connect', { acpId: id }, bounded)) as {
          connectionId: string;
        };
        await this.client.request(
          'mcp/message',
          {
            connectionId,
            method: 'initialize',
            params: {
              protocolVersion: MCP_TUNNEL_REVISION,
              capabilities: {},
              clientInfo: { name: 'tabwright-broker', version: '1' },
            },
          },
          bounded,
        );
        await this.client.notify('mcp/message', { connectionId, method: 'notifications/initialized' });
        this.#knownConnectionId = connectionId;
        return connectionId;
      })();
      opening.catch(() => {
        if (this.#connectionId === opening) this.#connectionId = undefined;
      });
      this.#connectionId = opening;
    }
    const opening = this.#connectionId;
    // A caller that gives up stops waiting; the connection itself is shared and keeps opening.
    return untilAborted(opening, signal);
  }

  async close(): Promise<void> {
    const pending = this.#connectionId;
    this.#connectionId = undefined;
    this.#knownConnectionId = undefined;
    this.#tools = undefined;
    if (!pending || this.dialect === 'b' || this.options.connectionSignal.aborted) return;
    const connectionId = await pending.catch(() => undefined);
    if (connectionId) {
      const bounded = { cancellationSignal: AbortSignal.timeout(5_000), stopWaitingOnCancel: true };
      await this.client.request('mcp/disconnect', { connectionId }, bounded).catch(() => undefined);
    }
  }
}

/** Waits for shared work on one caller's behalf: that caller giving up does not stop the work. */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new TunnelError('The call was cancelled.', 'cancelled'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new TunnelError('The call was cancelled.', 'cancelled'));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function disconnected(): TunnelError {
  return new TunnelError('The browser disconnected (the Tabwright panel closed its connection).', 'disconnected');
}

/** The stateless revision tags results with `resultType`; MCP clients of the older revisions do not expect it. */
function withoutResultType(result: unknown): unknown {
  if (typeof result !== 'object' || result === null || !('resultType' in result)) return result;
  const { resultType: _resultType, ...rest } = result as Record<string, unknown>;
  return rest;
}

export function textOf(result: CallToolResult): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}
