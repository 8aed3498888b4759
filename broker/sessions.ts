/**
 * Sessions outlive sockets: a panel that reconnects resumes its session, and a prompt re-sent
 * with a client message id the broker has seen is not delivered to the agent again. With a state
 * file, sessions and delivered ids also survive a broker restart.
 *
 * A session is *attached* while a panel socket is bound to it; its tool servers are that panel's
 * declared MCP servers. Listeners hear about every attach, detach and tool-list change, which is
 * what `/mcp` turns into `notifications/tools/list_changed`.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { AgentContext, NewSessionResponse, PromptResponse, StopReason } from '@agentclientprotocol/sdk/unstable';
import type { AcpDeclaration, PanelServer } from './panel-tools';

export interface BrokerSession {
  readonly id: string;
  /**
   * The bearer the session's agent sends to `/mcp/<session>`: minted for this session alone, kept in
   * memory only, and dead once the session is forgotten (a restarted broker mints a new one).
   */
  readonly credential: string;
  declared: AcpDeclaration[];
  /** The panel socket currently bound to this session. */
  client: AgentContext | undefined;
  /** The declared servers, reached through `client`; empty while detached. */
  servers: PanelServer[];
  /** Order of the latest attach, so `/mcp` can follow the panel that attached last. */
  attachedAt: number;
  /** The browser-tools server's name as last seen (tool names are prefixed with it). */
  browserName: string | undefined;
  /**
   * Client message ids already delivered, with the answer once the turn ended; `cut` for a turn
   * that was running when the broker stopped.
   */
  readonly delivered: Map<string, Promise<PromptResponse> | 'cut'>;
  /** How each delivered turn ended, once it has: what a restarted broker answers a repeat with. */
  readonly ended: Map<string, StopReason>;
  turn: AbortController | undefined;
  /** Every user prompt delivered to the agent, in order (what the agent has been told). */
  readonly received: string[];
  /** The fronted agent's own id for this session, when it is a separate process. */
  agentSessionId: string | undefined;
  /** The agent's modes and options for this session, as last heard (not kept across broker restarts). */
  setup: Pick<NewSessionResponse, 'modes' | 'configOptions'> | undefined;
}

interface StoredSession {
  id: string;
  delivered: string[];
  /** Absent in files written before turns' ends were kept: every delivered turn then counts as ended. */
  ended?: Record<string, StopReason>;
  received: string[];
  agentSessionId?: string;
  browserName?: string;
}

export type SessionListener = (session: BrokerSession) => void;

/** 32 random bytes: as strong as the broker's own token, and safe in a header as base64url. */
export function mintCredential(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * A session whose panel declared no tool servers (browser access off) offers none, even while its
 * panel is away; one never attached since a broker restart has not said, so it is not judged.
 */
export function declaresNoTools(session: BrokerSession): boolean {
  return session.attachedAt > 0 && session.declared.length === 0;
}

export class SessionStore {
  readonly #sessions = new Map<string, BrokerSession>();
  readonly #listeners = new Set<SessionListener>();
  readonly #forgetListeners = new Set<SessionListener>();
  #attachCount = 0;

  constructor(private readonly stateFile?: string) {
    if (stateFile && existsSync(stateFile)) {
      const stored = JSON.parse(readFileSync(stateFile, 'utf8')) as StoredSession[];
      for (const entry of stored) {
        const session = this.#blank(entry.id);
        // A turn that was running when the broker stopped counts as delivered, never to run twice, and
        // as cut: its reply is incomplete.
        for (const id of entry.delivered) {
          const stopReason = entry.ended ? entry.ended[id] : 'end_turn';
          if (stopReason) session.ended.set(id, stopReason);
          session.delivered.set(id, stopReason ? Promise.resolve({ stopReason }) : 'cut');
        }
        session.received.push(...entry.received);
        session.agentSessionId = entry.agentSessionId;
        session.browserName = entry.browserName;
        this.#sessions.set(entry.id, session);
      }
    }
  }

  #blank(id: string): BrokerSession {
    return {
      id,
      credential: mintCredential(),
      declared: [],
      client: undefined,
      servers: [],
      attachedAt: 0,
      browserName: undefined,
      delivered: new Map(),
      ended: new Map(),
      turn: undefined,
      received: [],
      agentSessionId: undefined,
      setup: undefined,
    };
  }

  create(id: string): BrokerSession {
    const session = this.#blank(id);
    this.#sessions.set(id, session);
    this.save();
    return session;
  }

  get(id: string): BrokerSession | undefined {
    return this.#sessions.get(id);
  }

  all(): BrokerSession[] {
    return [...this.#sessions.values()];
  }

  /** Binds a panel socket and its declared servers to the session, replacing any earlier binding. */
  attach(session: BrokerSession, client: AgentContext, declared: AcpDeclaration[], servers: PanelServer[]): void {
    for (const server of session.servers) void server.close();
    session.declared = declared;
    session.client = client;
    session.servers = servers;
    session.attachedAt = ++this.#attachCount;
    this.changed(session);
  }

  /** Drops a session that never got going (its agent failed to start it). */
  forget(id: string): void {
    const session = this.#sessions.get(id);
    if (!session) return;
    for (const server of session.servers) void server.close();
    this.#sessions.delete(id);
    this.save();
    for (const listener of this.#forgetListeners) listener(session);
  }

  /** The socket is gone: every session it was bound to keeps its state but loses its tools. */
  detachAll(client: AgentContext): BrokerSession[] {
    const detached = this.all().filter((session) => session.client === client);
    for (const session of detached) {
      for (const server of session.servers) void server.close();
      session.client = undefined;
      session.servers = [];
      this.changed(session);
    }
    return detached;
  }

  /** The attached session that attached last, if any panel is attached. */
  latestAttached(): BrokerSession | undefined {
    let latest: BrokerSession | undefined;
    for (const session of this.#sessions.values()) {
      if (session.client && (!latest || session.attachedAt > latest.attachedAt)) latest = session;
    }
    return latest;
  }

  /** Hears each session that ends (closed by its panel, or never started): its credential is dead from then on. */
  onForget(listener: SessionListener): () => void {
    this.#forgetListeners.add(listener);
    return () => this.#forgetListeners.delete(listener);
  }

  onChange(listener: SessionListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Tells listeners the session's tools changed (attach, detach, or the panel's `list_changed`). */
  changed(session: BrokerSession): void {
    for (const listener of this.#listeners) listener(session);
  }

  save(): void {
    if (!this.stateFile) return;
    const stored: StoredSession[] = this.all().map((s) => ({
      id: s.id,
      delivered: [...s.delivered.keys()],
      ended: Object.fromEntries(s.ended),
      received: s.received,
      ...(s.agentSessionId ? { agentSessionId: s.agentSessionId } : {}),
      ...(s.browserName ? { browserName: s.browserName } : {}),
    }));
    const temporary = `${this.stateFile}.tmp`;
    writeFileSync(temporary, JSON.stringify(stored));
    renameSync(temporary, this.stateFile);
  }
}
