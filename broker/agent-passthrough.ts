/**
 * The broker fronting a real agent: one agent process per panel session, started from the user's
 * command, with ACP relayed both ways — prompts and cancellation to the agent; its session
 * updates and permission requests to whichever panel socket holds the session now. The panel's
 * tools reach the agent as an ordinary MCP server on the broker (see child-mcp-servers.ts).
 *
 * Agent processes outlive panel sockets: a panel that reconnects resumes the same process. One
 * left without a panel for `detachedTtlMs` is stopped; a later resume starts a new process and
 * restores the session there (`session/resume`, else `session/load`) when the agent can.
 */
import {
  RequestError,
  type ContentBlock,
  type McpServer,
  type PromptResponse,
} from '@agentclientprotocol/sdk/unstable';
import { launchAgent, type Running } from './agent-launch';
import { mcpServersForAgent, type BrokerMcpEndpoint } from './child-mcp-servers';
import type { AgentIdentity, FrontedAgent } from './fronted-agent';
import type { BrokerSession, SessionStore } from './sessions';

export interface PassthroughOptions {
  command: string;
  cwd: string;
  version: string;
  sessions: SessionStore;
  /** Where the agent reaches a session's tools. */
  endpointFor(sessionId: string): BrokerMcpEndpoint;
  redact(text: string): string;
  log(line: string): void;
  detachedTtlMs?: number;
  startTimeoutMs?: number;
  /** How long a cancelled turn may take to end before the broker stops waiting for the agent. */
  cancelGraceMs?: number;
}

const DEFAULT_DETACHED_TTL_MS = 10 * 60_000;
const DEFAULT_START_TIMEOUT_MS = 60_000;
const DEFAULT_CANCEL_GRACE_MS = 15_000;

export class AgentPassthrough implements FrontedAgent {
  /** A started agent no session has claimed yet (started by `initialize` to learn who it is). */
  #spare: Promise<Running> | undefined;
  #identity: AgentIdentity | undefined;
  readonly #running = new Map<string, Running>();
  readonly #reapers = new Map<string, NodeJS.Timeout>();
  readonly #stopListening: () => void;
  #closed = false;

  constructor(private readonly options: PassthroughOptions) {
    this.#stopListening = options.sessions.onChange((session) => this.#watchAttachment(session));
  }

  async describe(): Promise<AgentIdentity> {
    if (this.#identity) return this.#identity;
    // The first panel to connect starts an agent to learn who it is; that process then serves the
    // first session, so the panel does not wait for two starts.
    this.#spare ??= this.#launch();
    const spare = this.#spare;
    try {
      const { init } = await spare;
      const info = init.agentInfo ?? { name: this.options.command.split(/\s+/)[0] ?? 'agent', version: '' };
      this.#identity = {
        agentInfo: { ...info, title: info.title ?? info.name },
        promptCapabilities: init.agentCapabilities?.promptCapabilities ?? {},
      };
      this.#reapSpareLater(spare);
      return this.#identity;
    } catch (error) {
      if (this.#spare === spare) this.#spare = undefined;
      throw error;
    }
  }

  /** A spare no session claims is not kept running for nothing. */
  #reapSpareLater(spare: Promise<Running>): void {
    setTimeout(() => {
      if (this.#spare !== spare) return;
      this.#spare = undefined;
      void spare.then(({ process }) => process.kill()).catch(() => undefined);
    }, this.options.detachedTtlMs ?? DEFAULT_DETACHED_TTL_MS).unref();
  }

  async start(session: BrokerSession): Promise<void> {
    const running = await this.#bind(session);
    const created = await running.process.connection.agent.request('session/new', {
      cwd: this.options.cwd,
      mcpServers: this.#mcpServers(session, running),
    });
    session.agentSessionId = created.sessionId;
    this.options.sessions.save();
    this.options.log(`session ${session.id.slice(0, 8)} runs in agent process ${String(running.process.pid)}`);
  }

  async restore(session: BrokerSession): Promise<void> {
    const current = this.#running.get(session.id);
    if (current?.process.alive) return;
    const running = await this.#bind(session);
    const capabilities = running.init.agentCapabilities;
    const agentSessionId = session.agentSessionId;
    const params = { cwd: this.options.cwd, mcpServers: this.#mcpServers(session, running) };
    try {
      if (agentSessionId && capabilities?.sessionCapabilities?.resume) {
        await running.process.connection.agent.request('session/resume', { ...params, sessionId: agentSessionId });
      } else if (agentSessionId && capabilities?.loadSession) {
        // The panel already shows this conversation: the agent's replay of it is not forwarded.
        running.binding.replaying = true;
        await running.process.connection.agent.request('session/load', { ...params, sessionId: agentSessionId });
      } else {
        throw new Error('its process ended and the agent cannot resume or load sessions');
      }
    } catch (error) {
      await this.discard(session);
      throw error;
    } finally {
      running.binding.replaying = false;
    }
    this.options.log(`session ${session.id.slice(0, 8)} restored in agent process ${String(running.process.pid)}`);
  }

  async prompt(session: BrokerSession, prompt: ContentBlock[], signal: AbortSignal): Promise<PromptResponse> {
    let running = this.#running.get(session.id);
    if (!running?.process.alive) {
      await this.restore(session);
      running = this.#running.get(session.id)!;
    }
    const agent = running.process.connection.agent;
    const sessionId = session.agentSessionId!;
    const onAbort = () => void agent.notify('session/cancel', { sessionId }).catch(() => undefined);
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const answer = agent.request('session/prompt', { sessionId, prompt });
      return await Promise.race([answer, this.#cancelGrace(signal)]);
    } catch (error) {
      if (await running.process.endedWithin(2_000)) {
        throw RequestError.internalError(undefined, running.process.describeExit());
      }
      throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  /** An agent must answer a cancelled turn with `cancelled`; one that never does is not waited for forever. */
  #cancelGrace(signal: AbortSignal): Promise<PromptResponse> {
    return new Promise((resolve) => {
      signal.addEventListener(
        'abort',
        () => {
          setTimeout(() => {
            this.options.log('the agent did not end a cancelled turn; stopped waiting for it');
            resolve({ stopReason: 'cancelled' });
          }, this.options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS).unref();
        },
        { once: true },
      );
    });
  }

  async discard(session: BrokerSession): Promise<void> {
    const running = this.#running.get(session.id);
    this.#running.delete(session.id);
    clearTimeout(this.#reapers.get(session.id));
    this.#reapers.delete(session.id);
    if (running) await running.process.kill();
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#stopListening();
    for (const timer of this.#reapers.values()) clearTimeout(timer);
    const spare = this.#spare?.catch(() => undefined);
    this.#spare = undefined;
    const all = [...this.#running.values()];
    this.#running.clear();
    const spareRunning = await spare;
    await Promise.all([...all, ...(spareRunning ? [spareRunning] : [])].map(({ process }) => process.kill()));
  }

  /** Gives the session an agent process: the spare one if it is still alive, else a new one. */
  async #bind(session: BrokerSession): Promise<Running> {
    await this.discard(session);
    const spare = this.#spare;
    this.#spare = undefined;
    let running = spare ? await spare.catch(() => undefined) : undefined;
    if (!running?.process.alive) running = await this.#launch();
    running.binding.session = session;
    this.#running.set(session.id, running);
    void running.process.exited.then(() => {
      if (this.#running.get(session.id) === running && !this.#closed) {
        this.options.log(`session ${session.id.slice(0, 8)}: ${running.process.describeExit()}`);
      }
    });
    return running;
  }

  #launch(): Promise<Running> {
    if (this.#closed) return Promise.reject(new Error('the broker is shutting down'));
    return launchAgent({
      command: this.options.command,
      cwd: this.options.cwd,
      version: this.options.version,
      redact: this.options.redact,
      log: this.options.log,
      startTimeoutMs: this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
    });
  }

  #mcpServers(session: BrokerSession, running: Running): McpServer[] {
    return mcpServersForAgent(
      session.declared,
      this.options.endpointFor(session.id),
      running.init.agentCapabilities?.mcpCapabilities,
    );
  }

  /** A session without a panel keeps its agent for a while, then the process is stopped. */
  #watchAttachment(session: BrokerSession): void {
    const running = this.#running.get(session.id);
    clearTimeout(this.#reapers.get(session.id));
    this.#reapers.delete(session.id);
    if (!running || session.client) return;
    const timer = setTimeout(() => {
      this.#reapers.delete(session.id);
      if (session.client || this.#running.get(session.id) !== running) return;
      this.options.log(`session ${session.id.slice(0, 8)} had no panel for a while; its agent process was stopped`);
      this.#running.delete(session.id);
      void running.process.kill();
    }, this.options.detachedTtlMs ?? DEFAULT_DETACHED_TTL_MS);
    timer.unref();
    this.#reapers.set(session.id, timer);
  }
}
