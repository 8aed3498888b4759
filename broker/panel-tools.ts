/**
 * The broker's side of the tunnel: it calls the MCP servers a panel declared in its session, over
 * that panel's own ACP socket. Dialect A (OpenAB's contract) by default, dialect B (the ACP SDK
 * binding) when asked. Every call is bounded by the contract's 180 s and cancellable.
 */
import { McpOverAcpCaller, type AgentContext } from '@agentclientprotocol/sdk/unstable';
import { TUNNEL_TIMEOUT_MS } from './limits';

export interface AcpDeclaration {
  type: 'acp';
  name: string;
  id?: string;
  serverId?: string;
}

export interface McpTool {
  name: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
}

export interface CallToolResult {
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export type Dialect = 'a' | 'b';

export class TunnelError extends Error {
  constructor(
    message: string,
    readonly code?: number,
  ) {
    super(message);
  }
}

const caller = new McpOverAcpCaller({ clientInfo: { name: 'tabwright-broker', version: '1' } });
export const mcpCaller = caller;

/** One declared server reached through one panel socket. */
export class PanelServer {
  #connectionId: Promise<string> | undefined;
  #tools: McpTool[] | undefined;

  constructor(
    private readonly client: AgentContext,
    readonly declaration: AcpDeclaration,
    private readonly dialect: Dialect,
    private readonly timeoutMs = TUNNEL_TIMEOUT_MS,
  ) {}

  get name(): string {
    return this.declaration.name;
  }

  /** Forget cached tools (after `notifications/tools/list_changed`). */
  invalidate(): void {
    this.#tools = undefined;
  }

  async tools(signal?: AbortSignal): Promise<McpTool[]> {
    this.#tools ??= ((await this.request('tools/list', undefined, signal)) as { tools: McpTool[] }).tools;
    return this.#tools;
  }

  async call(name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
    return (await this.request('tools/call', { name, arguments: args }, signal)) as CallToolResult;
  }

  async request(method: string, params: Record<string, unknown> | undefined, signal?: AbortSignal): Promise<unknown> {
    const deadline = AbortSignal.timeout(this.timeoutMs);
    const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
    if (this.dialect === 'b') return this.#requestB(method, params, combined);
    return this.#requestA(method, params, combined);
  }

  async #requestB(method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<unknown> {
    const serverId = this.declaration.serverId;
    if (!serverId) throw new TunnelError(`Server ${this.name} was declared without a serverId`);
    const outcome = await caller.request(this.client, serverId, method, params ?? {}, { signal });
    if ('error' in outcome) throw new TunnelError(outcome.error.message, outcome.error.code);
    return outcome.result;
  }

  async #requestA(method: string, params: Record<string, unknown> | undefined, signal: AbortSignal): Promise<unknown> {
    const connectionId = await this.#connect();
    const cancel = new AbortController();
    const onAbort = () => cancel.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      return await this.client.request(
        'mcp/message',
        { connectionId, method, ...(params ? { params } : {}) },
        { cancellationSignal: cancel.signal, stopWaitingOnCancel: true },
      );
    } catch (error) {
      const { code, message } = error as { code?: number; message?: string };
      if (signal.aborted)
        throw new TunnelError(`The tool call was cancelled: ${String(signal.reason?.message ?? signal.reason)}`);
      throw new TunnelError(message ?? String(error), code);
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  #connect(): Promise<string> {
    this.#connectionId ??= (async () => {
      const id = this.declaration.id ?? this.declaration.serverId;
      const { connectionId } = (await this.client.request('mcp/connect', { acpId: id })) as { connectionId: string };
      await this.client.request('mcp/message', {
        connectionId,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'tabwright-broker', version: '1' },
        },
      });
      await this.client.notify('mcp/message', { connectionId, method: 'notifications/initialized' });
      return connectionId;
    })();
    this.#connectionId.catch(() => (this.#connectionId = undefined));
    return this.#connectionId;
  }

  async close(): Promise<void> {
    const pending = this.#connectionId;
    this.#connectionId = undefined;
    if (!pending || this.dialect === 'b') return;
    const connectionId = await pending.catch(() => undefined);
    if (connectionId) await this.client.request('mcp/disconnect', { connectionId }).catch(() => undefined);
  }
}

export function textOf(result: CallToolResult): string {
  return result.content
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '')
    .join('\n');
}
