/**
 * The panel's own ACP client and MCP tunnel (AgentConnection + McpTunnel) running in Node over
 * `ws`, serving scripted tool servers, for broker integration tests that need a panel but not a
 * browser. The tool servers list the real browser tools (from the panel's registry) and answer
 * from a script, so a test can make a call hang, fail or succeed.
 */
import { WebSocket } from 'ws';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { AgentConnection, type ConnectionStatus } from '../../src/acp/agent-connection';
import { systemClock } from '../../src/acp/clock';
import { fetchProbe } from '../../src/acp/failure';
import type { PermissionPrompt } from '../../src/acp/permissions';
import type { DeclaredServer } from '../../src/mcp-server/openab-tunnel';
import type { CallMeta, ToolServer } from '../../src/mcp-server/mcp-core';
import { ToolRegistry, type ToolListing } from '../../src/mcp-server/registry';
import type { CallToolResult } from '../../src/mcp-server/response';
import { browserTools } from '../../src/mcp-server/tools/index';
import { McpTunnel } from '../../src/mcp-server/tunnel';
import { declarationFor } from '../../src/sidepanel/agent-hub';
import type { Dialect } from '../../src/shared/settings';

export type ToolScript = (name: string, args: Record<string, unknown>, meta: CallMeta) => Promise<CallToolResult>;

export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
  /** Aborted when the broker cancels the call or the socket closes. */
  signal: AbortSignal;
}

/** A tool server that lists `listings` and answers from `script`. */
export class ScriptedToolServer implements ToolServer {
  readonly version = '0.0.0-test';
  readonly calls: ScriptedCall[] = [];
  listings: ToolListing[];

  constructor(
    readonly name: string,
    listings: ToolListing[],
    public script: ToolScript,
  ) {
    this.listings = listings;
  }

  list(): ToolListing[] {
    return this.listings;
  }

  call(name: string, args: Record<string, unknown> | undefined, meta: CallMeta): Promise<CallToolResult> {
    this.calls.push({ name, args: args ?? {}, signal: meta.signal });
    return this.script(name, args ?? {}, meta);
  }
}

export const FIXTURE_SNAPSHOT = [
  '# snapshot — Fixture · /fixture.html',
  '- heading "Fixture" [level=1]',
  '- button "Count" [e1]',
  '- textbox "Your name" [e2]',
].join('\n');

/** The browser tools, listed exactly as the panel lists them, answering like a small fixture page. */
export function scriptedBrowser(name = 'tabwright'): ScriptedToolServer {
  const registry = new ToolRegistry(name, browserTools);
  return new ScriptedToolServer(name, registry.list(), async (tool, args) => {
    const bare = tool.slice(name.length + 1);
    if (bare === 'snapshot') return { content: [{ type: 'text', text: FIXTURE_SNAPSHOT }] };
    if (bare === 'click')
      return { content: [{ type: 'text', text: `Clicked <button> "Count" (${String(args.ref)})` }] };
    if (bare === 'tabs') return { content: [{ type: 'text', text: '- [1] Fixture (active)' }] };
    if (bare === 'find') {
      const wanted = String(args.text).toLowerCase();
      const lines = FIXTURE_SNAPSHOT.split('\n').filter(
        (line) => line.startsWith('-') && line.toLowerCase().includes(wanted),
      );
      return { content: [{ type: 'text', text: lines.join('\n') || 'No match.' }] };
    }
    if (bare === 'type')
      return { content: [{ type: 'text', text: `Typed "${String(args.text)}" into ${String(args.ref)}` }] };
    return { isError: true, content: [{ type: 'text', text: `Unknown tool ${tool}` }] };
  });
}

export interface NodePanelOptions {
  url: string;
  token: string;
  servers: ToolServer[];
  dialect?: Dialect;
  /** Answers every permission prompt with this option id (null: cancel); undefined leaves them pending. */
  answerPermissions?: string | null;
  /** The Origin to connect with, as Chrome sends `chrome-extension://<id>` (default: none, like a program). */
  origin?: string;
}

/** `ws`'s WebSocket, sending an Origin header the way a browser does. */
export function socketWithOrigin(origin: string): typeof WebSocket {
  return class extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { origin });
    }
  } as typeof WebSocket;
}

export interface NodePanel {
  readonly connection: AgentConnection;
  readonly tunnel: McpTunnel;
  readonly declared: DeclaredServer[];
  readonly statuses: ConnectionStatus[];
  readonly updates: SessionUpdate[];
  readonly permissions: PermissionPrompt[];
  readonly turns: unknown[];
  readonly notices: string[];
  /** The agent's streamed text so far. */
  text(): string;
  close(): void;
}

export function nodePanel(options: NodePanelOptions): NodePanel {
  let seq = 0;
  let sessionId: string | undefined;
  const declared: DeclaredServer[] = options.servers.map((server, index) => ({
    acpId: `00000000-0000-4000-8000-${String(index + 1).padStart(12, '0')}`,
    server,
  }));
  const tunnel = new McpTunnel({ declared: () => declared, mintId: () => `conn-${++seq}` });
  const statuses: ConnectionStatus[] = [];
  const updates: SessionUpdate[] = [];
  const permissions: PermissionPrompt[] = [];
  const turns: unknown[] = [];
  const notices: string[] = [];
  const connection = new AgentConnection({
    url: options.url,
    token: options.token,
    clientInfo: { name: 'tabwright', title: 'Tabwright', version: '0.0.0-test' },
    declarations: () => declared.map((d) => declarationFor(options.dialect ?? 'both', d.acpId, d.server.name)),
    tunnel,
    WebSocket: (options.origin ? socketWithOrigin(options.origin) : WebSocket) as never,
    probe: fetchProbe,
    clock: systemClock,
    mintId: () => `m-${++seq}-${Math.random().toString(36).slice(2, 8)}`,
    sessions: { get: async () => sessionId, set: async (id) => void (sessionId = id) },
    permissionMemory: { get: () => undefined, set: () => undefined },
    timing: { backoff: { baseMs: 50, capMs: 300 } },
    events: {
      status: (status) => statuses.push(status),
      session: () => undefined,
      turnStarted: () => undefined,
      turnInterrupted: () => undefined,
      update: (update) => updates.push(update),
      turnEnded: (_id, outcome) => turns.push(outcome),
      elicitation: (prompt) => prompt.answer({ action: 'cancel' }),
      permission: (prompt) => {
        permissions.push(prompt);
        if (options.answerPermissions !== undefined) prompt.answer(options.answerPermissions);
      },
      notice: (text) => notices.push(text),
      queueChanged: () => undefined,
    },
  });
  connection.enable();
  return {
    connection,
    tunnel,
    declared,
    statuses,
    updates,
    permissions,
    turns,
    notices,
    text: () =>
      updates
        .flatMap((u) =>
          u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? [u.content.text] : [],
        )
        .join(''),
    close: () => connection.disable(),
  };
}

export async function until(check: () => boolean | Promise<boolean>, ms = 10_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
