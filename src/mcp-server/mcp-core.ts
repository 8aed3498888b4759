/**
 * The hand-written MCP tools core shared by both tunnel dialects: `initialize` (stateful
 * revisions), `server/discover` (stateless 2026-07-28), `ping`, `tools/list` and `tools/call`.
 * Protocol faults throw McpMethodError; tool failures are results with `isError`.
 */
import { isJsonObject, PARAMS_NOT_OBJECT } from '../contract/acp';
import {
  MCP_STATEFUL_REVISIONS,
  MCP_STATELESS_REVISION,
  MCP_TUNNEL_REVISION,
  readCallerMeta,
  type CallerMeta,
} from '../contract/mcp';
import type { ToolListing } from './registry';
import type { CallToolResult } from './response';

export interface CallMeta {
  signal: AbortSignal;
  /** Identifies the call in the audit log and for cancellation. */
  requestId: string;
  /** An MCP client the broker says is calling through this connection; absent for the agent itself. */
  caller?: CallerMeta;
}

export interface ToolServer {
  /** The declared server name, which operators allowlist. */
  readonly name: string;
  readonly version: string;
  readonly instructions?: string;
  list(): ToolListing[];
  call(name: string, args: Record<string, unknown> | undefined, meta: CallMeta): Promise<CallToolResult>;
}

export class McpMethodError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export const MCP_INVALID_PARAMS = -32602;
export const MCP_METHOD_NOT_FOUND = -32601;

function serverInfo(server: ToolServer) {
  return { name: server.name, title: 'Tabwright', version: server.version };
}

const capabilities = { tools: { listChanged: true } };

export interface AnswerOptions extends CallMeta {
  /** Set for the stateless revision, whose results carry a `resultType`. */
  stateless?: boolean;
}

export async function answerMcpRequest(
  server: ToolServer,
  method: string,
  params: unknown,
  options: AnswerOptions,
): Promise<Record<string, unknown>> {
  if (params !== undefined && params !== null && !isJsonObject(params)) {
    throw new McpMethodError(MCP_INVALID_PARAMS, PARAMS_NOT_OBJECT);
  }
  const p = (params ?? {}) as Record<string, unknown>;
  const done = (result: Record<string, unknown>) =>
    options.stateless ? { ...result, resultType: 'complete' } : result;
  switch (method) {
    case 'initialize': {
      const requested = typeof p.protocolVersion === 'string' ? p.protocolVersion : MCP_TUNNEL_REVISION;
      const protocolVersion = (MCP_STATEFUL_REVISIONS as readonly string[]).includes(requested)
        ? requested
        : MCP_TUNNEL_REVISION;
      return {
        protocolVersion,
        capabilities,
        serverInfo: serverInfo(server),
        ...(server.instructions ? { instructions: server.instructions } : {}),
      };
    }
    case 'server/discover':
      return done({
        supportedVersions: [MCP_STATELESS_REVISION, ...MCP_STATEFUL_REVISIONS],
        capabilities,
        serverInfo: serverInfo(server),
        ...(server.instructions ? { instructions: server.instructions } : {}),
        _meta: { 'io.modelcontextprotocol/serverInfo': serverInfo(server) },
      });
    case 'ping':
      return done({});
    case 'tools/list':
      return done({ tools: server.list() });
    case 'tools/call': {
      if (typeof p.name !== 'string' || p.name === '') {
        throw new McpMethodError(MCP_INVALID_PARAMS, 'tools/call needs a tool name in params.name');
      }
      if (p.arguments !== undefined && p.arguments !== null && !isJsonObject(p.arguments)) {
        throw new McpMethodError(MCP_INVALID_PARAMS, 'tools/call arguments must be an object');
      }
      const caller = readCallerMeta(p._meta);
      const result = await server.call(
        p.name,
        (p.arguments ?? undefined) as Record<string, unknown> | undefined,
        caller ? { ...options, caller } : options,
      );
      return done(result);
    }
    default:
      throw new McpMethodError(MCP_METHOD_NOT_FOUND, `Method not found: ${method}`);
  }
}
