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
  client,
  RequestError,
  type ContentBlock,
  type InitializeResponse,
  type McpServer,
  type PromptResponse,
  type RequestPermissionResponse,
} from '@agentclientprotocol/sdk/unstable';
import { AgentProcess } from './agent-process';
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

/** One agent process and what it said about itself, bound to at most one broker session. */
interface Running {
  readonly process: AgentProcess;
  readonly init: InitializeResponse;
  readonly binding: { session: BrokerSession | undefined; replaying: boolean };
}

const DEFAULT_DETACHED_TTL_MS = 10 * 60_000;
const DEFAULT_START_TIMEOUT_MS = 60_000;
const DEFAULT_CANCEL_GRACE_MS = 15_000;
const CANCELLED: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export class AgentPassthrough implements FrontedAgent {
  /** A started agent no session has claimed yet (started by `initialize` to learn who it is). */
  #spare: Promise<Running> | undefined;
  readonly #running = new Map<string, Running>();
  readonly #reapers = new Map<string, NodeJS.Timeout>();
  readonly #stopListening: () => void;
  #closed = false;

  constructor(private readonly options: PassthroughOptions) {
    this.#stopListening = options.sessions.onChange((session) => this.#watchAttachment(session));
  }

  async describe(): Promise<AgentIdentity> {
    this.#spare ??= this.#launch();
    const spare = this.#spare;
    try {
      const { init } = await spare;
      const info = init.agentInfo ?? { name: this.options.command.split(/\s+/)[0] ?? 'agent', version: '' };
      return {
        agentInfo: { ...info, title: info.title ?? info.name },
        promptCapabilities: init.agentCapabilities?.promptCapabilities ?? {},
      };
    } catch (error) {
      if (this.#spare === spare) this.#spare = undefined;
      throw error;
    }
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

  async #launch(): Promise<Running> {
    if (this.#closed) throw new Error('the broker is shutting down');
    const binding: Running['binding'] = { session: undefined, replaying: false };
    const process = new AgentProcess({
      command: this.options.command,
      cwd: this.options.cwd,
      client: this.#clientFor(binding),
      redact: this.options.redact,
      log: this.options.log,
    });
    try {
      const init = await within(
        Promise.race([
          process.connection.agent.request('initialize', {
            protocolVersion: 1,
            clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
            clientInfo: { name: 'tabwright-broker', title: 'Tabwright local broker', version: this.options.version },
          }),
          process.exited.then(() => Promise.reject(new Error(process.describeExit()))),
        ]),
        this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
        'The agent’s initialize',
      );
      return { process, init, binding };
    } catch (error) {
      // A write to a process that already died fails first (EPIPE); its exit says more.
      const ended = await process.endedWithin(1_000);
      await process.kill();
      const message = ended ? process.describeExit() : `${(error as Error).message}. ${process.describeExit()}`;
      throw new Error(message, { cause: error });
    }
  }

  /** The client side the agent sees: its updates and questions go to the session's current panel. */
  #clientFor(binding: Running['binding']) {
    return client({ name: 'tabwright-broker' })
      .onNotification('session/update', ({ params }) => {
        const session = binding.session;
        if (!session || binding.replaying) return;
        void session.client?.notify('session/update', { ...params, sessionId: session.id }).catch(() => undefined);
      })
      .onRequest('session/request_permission', async ({ params, signal }) => {
        const panel = binding.session?.client;
        if (!panel) return CANCELLED;
        return panel
          .request(
            'session/request_permission',
            { ...params, sessionId: binding.session!.id },
            { cancellationSignal: signal },
          )
          .catch(() => CANCELLED);
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
