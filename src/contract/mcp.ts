/**
 * The MCP facts both ends of the tunnel share: the revisions spoken, the tool and result shapes on
 * the wire, and the texts of the failures either side answers with.
 */

/** Revisions with `initialize`, oldest first. */
export const MCP_STATEFUL_REVISIONS = ['2025-06-18', '2025-11-25'] as const;
/** The revision without `initialize` (`server/discover`, results tagged with `resultType`). */
export const MCP_STATELESS_REVISION = '2026-07-28';
/** What the broker asks for over the tunnel, and what the panel answers an unknown request with. */
export const MCP_TUNNEL_REVISION = '2025-06-18';
/** The newest stateful revision, offered to HTTP clients that ask for one we do not serve. */
export const MCP_NEWEST_REVISION = '2025-11-25';

/** A tool as `tools/list` carries it. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  [key: string]: unknown;
}

export type ContentBlock = { type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string };

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

/** A tool failure the model reads: a result with `isError`, not a protocol error. */
export function errorResult(text: string): CallToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}

/** What a call to a tool nobody listed answers, naming the tools that are. */
export function unknownToolText(name: string, known: readonly string[]): string {
  return `Unknown tool ${name}. Available tools: ${known.join(', ') || '(none)'}.`;
}

/**
 * Where an action's time went, in the result's `_meta` (not in its text): the page command's round
 * trip, and inside it the action and the settle wait as the page measured them, then reading the
 * page for the answer. What the caller measures beyond these is the tunnel.
 */
export const TIMING_META = 'tabwright/timing';

export interface ActionTiming {
  pageMs: number;
  workMs?: number;
  settleMs?: number;
  settleReason?: string;
  /**
   * Quiet beats counted when the settle ended on quiet: one is enough when the page had no work set
   * for soon, two otherwise; more when an animation or a busy region held it. When nothing changed,
   * the beats after which the page vouched that nothing the action set was due (absent when the
   * whole idle wait was waited out).
   */
  settleBeats?: number;
  reportMs: number;
}

/**
 * Who is calling, when the broker tells the panel (a `tools/call`'s `_meta`): an MCP client on the
 * broker's `/mcp`, told apart by its credentials (`id`, opaque), with the name it gave (`label`,
 * only ever shown). A call without it comes from the agent the connection belongs to.
 */
export const CALLER_META = 'tabwright/caller';

export interface CallerMeta {
  id: string;
  label: string;
}

/** The caller a `_meta` names, or undefined when it names none (or not in this shape). */
export function readCallerMeta(meta: unknown): CallerMeta | undefined {
  if (!meta || typeof meta !== 'object') return undefined;
  const value = (meta as Record<string, unknown>)[CALLER_META];
  if (!value || typeof value !== 'object') return undefined;
  const { id, label } = value as Record<string, unknown>;
  if (typeof id !== 'string' || !/^[\w.:-]{1,128}$/.test(id)) return undefined;
  if (typeof label !== 'string' || label.trim() === '' || label.length > 64) return undefined;
  return { id, label };
}
