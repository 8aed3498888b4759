/**
 * The broker fronting a real agent: one agent process per panel session, started from the user's
 * command, with ACP relayed both ways — sign-in, prompts and cancellation to the agent; its session
 * updates and permission requests to whichever panel socket holds the session now. The panel's
 * tools reach the agent as an ordinary MCP server on the broker (see child-mcp-servers.ts).
 *
 * Agent processes outlive panel sockets: a panel that reconnects resumes the same process. One
 * left without a panel for `detachedTtlMs` is stopped; a later resume starts a new process and
 * restores the session there (`session/resume`, else `session/load`) when the agent can.
 *
 * An agent that refuses a session (it needs signing in, its configuration is wrong) is answering,
 * not failing: its process is kept for the next attempt, so a panel that retries never starts
 * another one.
 */
import {
  type AuthMethod,
  type AuthenticateRequest,
  type ContentBlock,
  type McpServer,
  type PromptResponse,
  type SessionConfigOption,
  type SetSessionConfigOptionRequest,
} from '@agentclientprotocol/sdk/unstable';
import { agentFailure } from './agent-failure';
import { launchAgent, type Running } from './agent-launch';
import { mcpServersForAgent, type BrokerMcpEndpoint } from './child-mcp-servers';
import type { AgentIdentity, FrontedAgent, SessionSetup } from './fronted-agent';
import type { Mask } from './secret-mask';
import { spellSignIn } from './sign-in-command';
import type { BrokerSession, SessionStore } from './sessions';

export interface PassthroughOptions {
  command: string;
  cwd: string;
  /** The environment an agent process starts with (never holding the broker's token), read at each start. */
  environment(): NodeJS.ProcessEnv;
  version: string;
  sessions: SessionStore;
  /** Where the session's agent reaches its tools, and the credential it shows there. */
  endpointFor(session: BrokerSession): BrokerMcpEndpoint;
  /** The broker's mask (its token, session credentials, API keys), for the agent's stderr. */
  mask: Mask;
  log(line: string): void;
  detachedTtlMs?: number;
  startTimeoutMs?: number;
  /** How long a cancelled turn may take to end before the broker stops waiting for the agent. */
  cancelGraceMs?: number;
  /**
   * Settles once the agent's MCP clients of this session have their tool listings (or a while has
   * passed); a session's first turn waits for it.
   */
  toolsListed?(session: BrokerSession): Promise<void>;
}

export const DEFAULT_DETACHED_TTL_MS = 10 * 60_000;
const DEFAULT_START_TIMEOUT_MS = 60_000;
const DEFAULT_CANCEL_GRACE_MS = 15_000;

const CANCELLED: PromptResponse = { stopReason: 'cancelled' };

export class AgentPassthrough implements FrontedAgent {
  /** A started agent no session holds: started to learn who it is, to sign in, or kept after a refusal. */
  #spare: Promise<Running> | undefined;
  #identity: AgentIdentity | undefined;
  /** The sign-in the user chose, repeated in every agent process started after it. */
  #auth: AuthenticateRequest | undefined;
  readonly #running = new Map<string, Running>();
  readonly #reapers = new Map<string, NodeJS.Timeout>();
  /** Per session, settles once the agent has ended the turn that holds it (not when the panel heard). */
  readonly #agentTurns = new Map<string, Promise<void>>();
  /** Sessions whose last turn was stopped. */
  readonly #stopped = new Set<string>();
  /** Agent processes that have had a turn: later turns do not wait for their tool listings. */
  readonly #prompted = new WeakSet<Running>();
  readonly #stopListening: () => void;
  #closed = false;

  constructor(private readonly options: PassthroughOptions) {
    this.#stopListening = options.sessions.onChange((session) => this.#watchAttachment(session));
  }

  async describe(): Promise<AgentIdentity> {
    if (this.#identity) return this.#identity;
    // The first panel to connect starts an agent to learn who it is; that process then serves the
    // first session, so the panel does not wait for two starts.
    const { init } = await this.#spareRunning();
    const info = init.agentInfo ?? { name: this.options.command.split(/\s+/)[0] ?? 'agent', version: '' };
    this.#identity = {
      agentInfo: { ...info, title: info.title ?? info.name },
      promptCapabilities: init.agentCapabilities?.promptCapabilities ?? {},
      authMethods: (init.authMethods ?? []).map((method) => this.#spelled(method)),
    };
    return this.#identity;
  }

  /** A method the broker spells out for the panel, or refuses (saying why) when the agent's data would be shell. */
  #spelled(method: AuthMethod): AuthMethod {
    const { method: spelled, refusal } = spellSignIn(method, this.options.command);
    if (refusal) this.options.log(`refused the agent's sign-in method ${JSON.stringify(method.id)}: ${refusal}`);
    return spelled;
  }

  async authenticate(request: AuthenticateRequest): Promise<void> {
    const running = await this.#spareRunning();
    const mark = running.process.stderrMark();
    try {
      await running.process.connection.agent.request('authenticate', request);
    } catch (error) {
      throw await agentFailure(error, running.process, mark);
    }
    this.#auth = { methodId: request.methodId, ...(request._meta ? { _meta: request._meta } : {}) };
    this.options.log(`the agent signed in (${request.methodId})`);
  }

  /** The spare agent process, started if there is none (or it has ended). */
  async #spareRunning(): Promise<Running> {
    const current = this.#spare ? await this.#spare.catch(() => undefined) : undefined;
    if (current?.process.alive) return current;
    const spare = this.#launch();
    this.#spare = spare;
    try {
      const running = await spare;
      this.#reapSpareLater(spare);
      return running;
    } catch (error) {
      if (this.#spare === spare) this.#spare = undefined;
      throw error;
    }
  }

  /**
   * Some agents (Qwen Code) connect to their MCP servers at session start and list the tools in the
   * background, and a turn that starts before the listing lands is offered no browser tools at all;
   * so a process's first turn waits, at most a few seconds, for the agent to have listed them.
   */
  async #toolsListed(session: BrokerSession, running: Running, signal: AbortSignal): Promise<void> {
    if (!this.options.toolsListed || this.#prompted.has(running)) return;
    this.#prompted.add(running);
    const started = Date.now();
    await Promise.race([this.options.toolsListed(session), aborted(signal)]);
    const waited = Date.now() - started;
    if (waited >= 50) this.options.log(`the first turn waited ${waited} ms for the agent to list its tools`);
  }

  /** A spare no session claims is not kept running for nothing. */
  #reapSpareLater(spare: Promise<Running>): void {
    setTimeout(() => {
      if (this.#spare !== spare) return;
      this.#spare = undefined;
      void spare.then(({ process }) => process.kill()).catch(() => undefined);
    }, this.options.detachedTtlMs ?? DEFAULT_DETACHED_TTL_MS).unref();
  }

  async start(session: BrokerSession): Promise<SessionSetup> {
    const running = await this.#bind(session);
    const mark = running.process.stderrMark();
    let created;
    try {
      created = await running.process.connection.agent.request('session/new', {
        cwd: this.options.cwd,
        mcpServers: this.#mcpServers(session, running),
      });
    } catch (error) {
      const failure = await agentFailure(error, running.process, mark);
      this.#release(session, running);
      throw failure;
    }
    session.agentSessionId = created.sessionId;
    this.options.sessions.save();
    this.options.log(`session ${session.id.slice(0, 8)} runs in agent process ${String(running.process.pid)}`);
    return { modes: created.modes, configOptions: created.configOptions };
  }

  async restore(session: BrokerSession): Promise<SessionSetup | void> {
    const current = this.#running.get(session.id);
    if (current?.process.alive) return;
    const running = await this.#bind(session);
    const capabilities = running.init.agentCapabilities;
    const agentSessionId = session.agentSessionId;
    const params = { cwd: this.options.cwd, mcpServers: this.#mcpServers(session, running) };
    let setup: SessionSetup;
    const mark = running.process.stderrMark();
    try {
      if (agentSessionId && capabilities?.sessionCapabilities?.resume) {
        setup = await running.process.connection.agent.request('session/resume', {
          ...params,
          sessionId: agentSessionId,
        });
      } else if (agentSessionId && capabilities?.loadSession) {
        // The panel already shows this conversation: the agent's replay of it is not forwarded.
        running.binding.replaying = true;
        setup = await running.process.connection.agent.request('session/load', {
          ...params,
          sessionId: agentSessionId,
        });
      } else {
        throw new Error('its process ended and the agent cannot resume or load sessions');
      }
    } catch (error) {
      const failure = await agentFailure(error, running.process, mark);
      this.#release(session, running);
      throw failure;
    } finally {
      running.binding.replaying = false;
    }
    this.options.log(`session ${session.id.slice(0, 8)} restored in agent process ${String(running.process.pid)}`);
    return { modes: setup?.modes, configOptions: setup?.configOptions };
  }

  /** The session's agent process, restoring the session in a new one if it has ended. */
  async #live(session: BrokerSession): Promise<Running> {
    let running = this.#running.get(session.id);
    if (!running?.process.alive) {
      const setup = await this.restore(session);
      if (setup) session.setup = setup;
      running = this.#running.get(session.id)!;
    }
    return running;
  }

  async setMode(session: BrokerSession, modeId: string): Promise<void> {
    const running = await this.#live(session);
    const mark = running.process.stderrMark();
    try {
      await running.process.connection.agent.request('session/set_mode', {
        sessionId: session.agentSessionId!,
        modeId,
      });
    } catch (error) {
      throw await agentFailure(error, running.process, mark);
    }
  }

  async setConfigOption(
    session: BrokerSession,
    request: SetSessionConfigOptionRequest,
  ): Promise<SessionConfigOption[]> {
    const running = await this.#live(session);
    const mark = running.process.stderrMark();
    try {
      const answer = await running.process.connection.agent.request('session/set_config_option', {
        ...request,
        sessionId: session.agentSessionId!,
      });
      return answer.configOptions;
    } catch (error) {
      throw await agentFailure(error, running.process, mark);
    }
  }

  /** The panel closed the session: the agent is told (when it takes `session/close`), then its process ends. */
  async end(session: BrokerSession): Promise<void> {
    const running = this.#running.get(session.id);
    if (
      running?.process.alive &&
      session.agentSessionId &&
      running.init.agentCapabilities?.sessionCapabilities?.close
    ) {
      await running.process.connection.agent
        .request('session/close', { sessionId: session.agentSessionId })
        .catch((error: unknown) => this.options.log(`the agent refused session/close: ${(error as Error).message}`));
    }
    await this.discard(session);
  }

  /**
   * One turn. Turns never overlap in the agent: a prompt waits until the agent has ended the
   * previous turn of its session, even one the panel was already told is cancelled.
   *
   * Some agents answer one turn late after a Stop (Claude Code): the next prompt ends at once with
   * no reply, and its answer would come with the turn after. A turn after a Stop that ends so is
   * not taken for the answer: when the agent can restore sessions its process is ended, and the
   * prompt is sent again to the session restored in a new one, so each turn gets its own answer.
   */
  async prompt(session: BrokerSession, prompt: ContentBlock[], signal: AbortSignal): Promise<PromptResponse> {
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const previous = this.#agentTurns.get(session.id) ?? Promise.resolve();
    const held = previous.then(() => mine);
    this.#agentTurns.set(session.id, held);
    void held.then(() => {
      if (this.#agentTurns.get(session.id) === held) this.#agentTurns.delete(session.id);
    });
    let sent: Promise<unknown> | undefined;
    const afterStop = this.#stopped.delete(session.id);
    try {
      await Promise.race([previous, aborted(signal)]);
      if (signal.aborted) return CANCELLED;
      const send = async (running: Running) => {
        const mark = running.process.stderrMark();
        const replies = running.binding.replies;
        const answer = running.process.connection.agent.request('session/prompt', {
          sessionId: session.agentSessionId!,
          prompt,
        });
        sent = answer;
        const response = await this.#relayTurn(session, running, answer, signal, mark);
        return { response, silent: running.binding.replies === replies };
      };
      let running = await this.#restored(session);
      await this.#toolsListed(session, running, signal);
      if (signal.aborted) return CANCELLED;
      const first = await send(running);
      if (!afterStop || signal.aborted || first.response.stopReason !== 'end_turn' || !first.silent) {
        return first.response;
      }
      if (!this.#canRestore(running)) {
        this.options.log(
          'the agent ended the turn after a Stop at once and without a reply; it cannot restore sessions',
        );
        return first.response;
      }
      this.options.log(
        'the agent ended the turn after a Stop at once and without a reply (its answer would come a turn late); the session goes on in a new process',
      );
      await this.#retire(session, running);
      running = await this.#restored(session);
      return (await send(running)).response;
    } finally {
      if (signal.aborted) this.#stopped.add(session.id);
      if (sent) void sent.then(release, release);
      else release();
    }
  }

  /** The session's agent process, the session restored in a new one if it has ended. */
  async #restored(session: BrokerSession): Promise<Running> {
    const running = this.#running.get(session.id);
    if (running?.process.alive) return running;
    await this.restore(session);
    return this.#running.get(session.id)!;
  }

  async #relayTurn(
    session: BrokerSession,
    running: Running,
    answer: Promise<PromptResponse>,
    signal: AbortSignal,
    /** Where the agent's stderr stood as the prompt was sent. */
    mark: number,
  ): Promise<PromptResponse> {
    const agent = running.process.connection.agent;
    const sessionId = session.agentSessionId!;
    let timer: NodeJS.Timeout | undefined;
    let retired = false;
    let onAbort: () => void = () => undefined;
    // An agent must answer a cancelled turn with `cancelled`; one that does not within the grace
    // period is not waited for: the panel hears `cancelled`. An agent that can restore its session
    // has its process ended (the session goes on in a new one); any other keeps the turn, and the
    // next prompt waits until the agent ends it.
    const graceOver = new Promise<PromptResponse>((resolve) => {
      onAbort = () => {
        void agent.notify('session/cancel', { sessionId }).catch(() => undefined);
        const graceMs = this.options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS;
        timer = setTimeout(() => {
          if (this.#canRestore(running)) {
            retired = true;
            this.options.log(
              `the agent did not end a cancelled turn within ${graceMs / 1000} s; its process was stopped and the session goes on in a new one`,
            );
            void this.#retire(session, running).then(() => resolve(CANCELLED));
          } else {
            this.options.log(
              `the agent did not end a cancelled turn within ${graceMs / 1000} s; the next prompt waits until it does`,
            );
            running.binding.finishingCancelled = true;
            const heard = () => void (running.binding.finishingCancelled = false);
            answer.then(heard, heard);
            resolve(CANCELLED);
          }
        }, graceMs);
        timer.unref();
      };
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      return await Promise.race([answer, graceOver]);
    } catch (error) {
      if (retired) return graceOver;
      throw await agentFailure(error, running.process, mark);
    } finally {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  #canRestore(running: Running): boolean {
    const capabilities = running.init.agentCapabilities;
    return Boolean(capabilities?.sessionCapabilities?.resume || capabilities?.loadSession);
  }

  /** Ends a session's agent process; the session stays, to be restored in a new one. */
  async #retire(session: BrokerSession, running: Running): Promise<void> {
    if (this.#running.get(session.id) === running) this.#running.delete(session.id);
    running.binding.session = undefined;
    await running.process.kill();
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

  /** A session the agent refused gives its process back as the spare, for the next attempt. */
  #release(session: BrokerSession, running: Running): void {
    if (this.#running.get(session.id) === running) this.#running.delete(session.id);
    running.binding.session = undefined;
    if (running.process.alive && !this.#spare && !this.#closed) {
      const spare = Promise.resolve(running);
      this.#spare = spare;
      this.#reapSpareLater(spare);
    } else {
      void running.process.kill();
    }
  }

  async #launch(): Promise<Running> {
    if (this.#closed) throw new Error('the broker is shutting down');
    const running = await launchAgent({
      command: this.options.command,
      cwd: this.options.cwd,
      env: this.options.environment(),
      version: this.options.version,
      redact: this.options.mask,
      log: this.options.log,
      startTimeoutMs: this.options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
    });
    if (this.#auth) {
      // A sign-in that no longer works is forgotten: the agent's refusal of the session says so.
      await running.process.connection.agent.request('authenticate', this.#auth).catch((error: unknown) => {
        this.options.log(
          `the agent refused the earlier sign-in (${this.#auth?.methodId}): ${(error as Error).message}`,
        );
        this.#auth = undefined;
      });
    }
    return running;
  }

  #mcpServers(session: BrokerSession, running: Running): McpServer[] {
    return mcpServersForAgent(
      session.declared,
      this.options.endpointFor(session),
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

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
