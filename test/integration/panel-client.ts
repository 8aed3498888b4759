/**
 * The panel's real ACP client (AgentConnection + McpTunnel) running in Node over `ws`, with its
 * events recorded, for integration tests against real broker peers.
 */
import { WebSocket } from 'ws';
import type { SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { AgentConnection, type ConnectionStatus, type ConnectionTiming } from '../../src/acp/agent-connection';
import { systemClock, type Clock } from '../../src/acp/clock';
import { fetchProbe } from '../../src/acp/failure';
import type { PermissionPrompt, RememberedChoice } from '../../src/acp/permissions';
import type { SessionMethod } from '../../src/acp/session-plan';
import { declarationFor } from '../../src/sidepanel/agent-hub';
import type { DeclaredServer } from '../../src/mcp-server/openab-tunnel';
import { McpTunnel } from '../../src/mcp-server/tunnel';
import type { Dialect } from '../../src/shared/settings';

export interface Recorded {
  statuses: Array<[ConnectionStatus, string | undefined]>;
  sessions: Array<{ id: string; how: SessionMethod; note: string | undefined }>;
  updates: SessionUpdate[];
  turns: Array<{ batchId: string; outcome: unknown }>;
  /** Turns whose socket died while they may still go on, by batch id, in order. */
  interrupted: string[];
  started: string[][];
  notices: string[];
  permissions: PermissionPrompt[];
}

export interface PanelClientOptions {
  url: string;
  token?: string;
  servers?: DeclaredServer[];
  dialect?: Dialect;
  timing?: Partial<ConnectionTiming>;
  sessionId?: string;
  /** Answer permission prompts automatically with this option id. */
  answerPermissions?: string | null;
  WebSocket?: typeof WebSocket;
  /** The panel's timers (back-off, heartbeats); a fake clock lets a test cover minutes at once. */
  clock?: Clock;
  /** How long remembering the session id takes. */
  sessionWriteMs?: number;
}

export function panelClient(options: PanelClientOptions) {
  let seq = 0;
  let sessionId = options.sessionId;
  const remembered = new Map<string, RememberedChoice>();
  const recorded: Recorded = {
    statuses: [],
    sessions: [],
    updates: [],
    turns: [],
    interrupted: [],
    started: [],
    notices: [],
    permissions: [],
  };
  const servers = options.servers ?? [];
  const tunnel = new McpTunnel({ declared: () => servers, mintId: () => `conn-${++seq}` });
  const connection = new AgentConnection({
    url: options.url,
    token: options.token ?? '',
    clientInfo: { name: 'tabwright', title: 'Tabwright', version: '0.0.0-test' },
    declarations: () => servers.map((s) => declarationFor(options.dialect ?? 'both', s.acpId, s.server.name)),
    tunnel,
    WebSocket: (options.WebSocket ?? WebSocket) as never,
    probe: fetchProbe,
    clock: options.clock ?? systemClock,
    mintId: () => `id-${++seq}-${Math.random().toString(36).slice(2, 8)}`,
    sessions: {
      get: async () => sessionId,
      set: async (id) => {
        // Storage that takes a while to write, as chrome.storage may under load.
        if (options.sessionWriteMs) await new Promise((resolve) => setTimeout(resolve, options.sessionWriteMs));
        sessionId = id;
      },
    },
    permissionMemory: { get: (tool) => remembered.get(tool), set: (tool, choice) => void remembered.set(tool, choice) },
    timing: { backoff: { baseMs: 20, capMs: 200 }, ...options.timing },
    events: {
      status: (status, detail) => recorded.statuses.push([status, detail]),
      session: (id, how, note) => recorded.sessions.push({ id, how, note }),
      turnStarted: (batch) => recorded.started.push(batch.messages.map((m) => m.text)),
      update: (update) => recorded.updates.push(update),
      turnInterrupted: (batchId) => recorded.interrupted.push(batchId),
      turnEnded: (batchId, outcome) => recorded.turns.push({ batchId, outcome }),
      elicitation: (prompt) => prompt.answer({ action: 'cancel' }),
      permission: (prompt) => {
        recorded.permissions.push(prompt);
        if (options.answerPermissions !== undefined) prompt.answer(options.answerPermissions);
      },
      notice: (text) => recorded.notices.push(text),
      queueChanged: () => undefined,
    },
  });
  return {
    connection,
    tunnel,
    recorded,
    remembered,
    get sessionId() {
      return sessionId;
    },
    text(): string {
      return recorded.updates
        .map((u) => (u.sessionUpdate === 'agent_message_chunk' && u.content.type === 'text' ? u.content.text : ''))
        .join('');
    },
  };
}

export async function until(check: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
