/**
 * One agent's ACP connection for one browser window: connect, handshake, session, turns,
 * liveness and reconnect. It reports to the panel through `AgentEvents` and never touches the
 * DOM or `chrome.*`; the WebSocket constructor, clock and stores are passed in.
 */
import {
  client,
  RequestError,
  type ClientConnection,
  type ClientContext,
  type InitializeResponse,
  type McpServer,
  type NewSessionResponse,
  type PromptResponse,
  type RequestPermissionRequest,
  type RequestPermissionResponse,
  type SessionConfigOption,
  type SetSessionConfigOptionRequest,
  type SetSessionConfigOptionResponse,
  type SessionModeState,
  type SessionUpdate,
  type StopReason,
} from '@agentclientprotocol/sdk/unstable';
import { createWebSocketStream } from '@agentclientprotocol/sdk/experimental/ws-client';
import { agentErrorText } from './agent-error';
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import { ACP_SUBPROTOCOL, subprotocolsFor } from './broker-url';
import { coalesceTextChunks } from './chunk-coalescer';
import { sleep, type Clock } from './clock';
import { ElicitationBroker, type ElicitationPrompt } from './elicitation';
import { brokerRefusal, classifyFailure, type Failure, type FailureKind, type ReachabilityProbe } from './failure';
import { LivenessMonitor } from './liveness';
import { batchText, Outbox, type Batch, type QueuedMessage } from './outbox';
import { PermissionBroker, type PermissionMemory, type PermissionPrompt } from './permissions';
import { isJsonObject, MAX_METHOD_FRAME_BYTES, MESSAGE_ID_META, TURN_CUT_META } from '../contract/acp';
import { brokerDropsRepeats, planSession, type SessionMethod } from './session-plan';
import { observeSocket, type SocketObservation } from './socket-observer';
import type { McpTunnel } from '../mcp-server/tunnel';

/**
 * Where a connection stands: on its way or up, or stopped by one of the failures `failure.ts`
 * tells apart (`closed` only ever leads to a reconnect). `needs_signin` and `refused` wait for a
 * click or an edit.
 */
export type ConnectionStatus =
  'disabled' | 'connecting' | 'connected' | 'unresponsive' | Exclude<FailureKind, 'closed'>;

/** What the agent said about a session when it started or came back: its modes and options. */
export interface SessionSetup {
  modes?: SessionModeState | null;
  configOptions?: SessionConfigOption[] | null;
}

/** Facts a status carries besides its words: the extension id a broker wants admitted. */
export interface StatusFacts {
  extensionId?: string;
}

export interface AgentEvents {
  status(status: ConnectionStatus, detail?: string, facts?: StatusFacts): void;
  session(sessionId: string, how: SessionMethod, note: string | undefined, setup: SessionSetup): void;
  turnStarted(batch: Batch): void;
  update(update: SessionUpdate, batchId: string | undefined): void;
  /**
   * The socket died during a turn that may still go on: it is sent again with its message id once
   * a socket is back, and a resumed session's later updates continue the same reply.
   */
  turnInterrupted(batchId: string): void;
  turnEnded(batchId: string, outcome: TurnOutcome): void;
  permission(prompt: PermissionPrompt): void;
  elicitation(prompt: ElicitationPrompt): void;
  notice(text: string): void;
  queueChanged(pending: readonly QueuedMessage[], inflight: Batch | undefined): void;
}

/**
 * How a turn ended. `interrupted`: its socket died after the agent had started answering and the
 * turn is not sent again on its own — the broker cannot drop a repeat (`dropped`) or the session
 * is a new one (`new-session`), where a repeat would make the agent do the task twice.
 */
export type TurnOutcome = { stopReason: StopReason } | { error: string; interrupted?: 'dropped' | 'new-session' };

const INTERRUPTED_TEXT = {
  dropped:
    'The connection dropped while the agent was answering; the reply may be incomplete. Retry sends the message again.',
  'new-session':
    'The connection dropped while the agent was answering and its session did not come back; the reply is incomplete and the message was not sent again. Retry sends it again.',
} as const;

export interface SessionMemory {
  get(): Promise<string | undefined>;
  set(sessionId: string | undefined): Promise<void>;
}

export interface ConnectionTiming {
  heartbeatMs: number;
  probeTimeoutMs: number;
  handshakeTimeoutMs: number;
  backoff: BackoffPolicy;
}

export const DEFAULT_TIMING: ConnectionTiming = {
  heartbeatMs: 20_000,
  probeTimeoutMs: 10_000,
  handshakeTimeoutMs: 20_000,
  backoff: DEFAULT_BACKOFF,
};

export interface AgentConnectionOptions {
  url: string;
  token: string;
  clientInfo: { name: string; title: string; version: string };
  /** The MCP servers to declare in every session/new, resume and load. */
  declarations(): McpServer[];
  tunnel: McpTunnel;
  WebSocket: new (url: string, protocols?: string | string[]) => WebSocket;
  probe: ReachabilityProbe;
  clock: Clock;
  random?: () => number;
  mintId(): string;
  sessions: SessionMemory;
  permissionMemory: PermissionMemory;
  events: AgentEvents;
  timing?: Partial<ConnectionTiming>;
  cwd?: string;
}

/** ACP's `auth_required`: the agent will not start a session before it is signed in. */
const AUTH_REQUIRED = -32000;

/**
 * A handshake that failed with an answer. Silence (our own timeout) is a slow or stuck broker, not
 * a refusal: it is retried on the usual back-off. An answer is the agent's or broker's word and is
 * not retried on its own: trying again would only start the agent again to hear the same thing.
 */
function handshakeFailure(error: RequestError, signingIn: string | undefined): Failure {
  if (error.code === -32800) return { kind: 'closed', detail: 'the broker did not answer the handshake in time' };
  const why = agentErrorText(error);
  if (signingIn) return { kind: 'needs_signin', detail: `signing in with “${signingIn}” failed: ${why}` };
  if (error.code === AUTH_REQUIRED) return { kind: 'needs_signin', detail: `the agent needs signing in: ${why}` };
  return { kind: 'refused', detail: `the broker refused to start a session: ${why}` };
}

/** The agent refused the sign-in the user chose (told apart from a refused session). */
class SignInFailure extends Error {
  constructor(override readonly cause: RequestError) {
    super(cause.message);
  }
}

export class AgentConnection {
  readonly #options: AgentConnectionOptions;
  readonly #timing: ConnectionTiming;
  readonly outbox: Outbox;
  readonly permissions: PermissionBroker;
  readonly elicitations: ElicitationBroker;
  #status: ConnectionStatus = 'disabled';
  #connection: ClientConnection | undefined;
  #sessionId: string | undefined;
  /**
   * The stored session being loaded or resumed: an agent replays a loaded session's history, and
   * may offer its slash commands, before it answers, so those updates are taken while it is asked.
   */
  #reopening: string | undefined;
  #dropsRepeats = false;
  #turn: Batch | undefined;
  #run: AbortController | undefined;
  #liveness: LivenessMonitor | undefined;
  #wake: (() => void) | undefined;
  /** Set when the panel itself dropped the socket, so the notice says why. */
  #droppedBecause: string | undefined;
  /** The agent's sign-in methods, as its last handshake listed them. */
  #authMethods: readonly unknown[] = [];
  /** Who the agent says it is (`agentInfo` of its last handshake). */
  #agentInfo: { name: string; title?: string | null } | undefined;
  /** The sign-in method the user chose, tried in the next handshake before the session. */
  #signIn: string | undefined;
  /** Whether the broker resumes sessions (so servers can be re-declared without a reconnect). */
  #canResume = false;
  /** Whether the broker takes `session/close`. */
  #canClose = false;
  /** The offered servers changed and the broker has not been told yet. */
  #redeclarePending = false;
  #redeclaring: Promise<void> | undefined;

  constructor(options: AgentConnectionOptions) {
    this.#options = options;
    this.#timing = { ...DEFAULT_TIMING, ...options.timing };
    this.outbox = new Outbox(options.mintId);
    this.permissions = new PermissionBroker(options.permissionMemory, (prompt) => options.events.permission(prompt));
    this.elicitations = new ElicitationBroker((prompt) => options.events.elicitation(prompt));
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  get busy(): boolean {
    return this.#turn !== undefined;
  }

  /** Who the agent said it is at its last handshake, if it said. */
  get agentInfo(): { name: string; title?: string | null } | undefined {
    return this.#agentInfo;
  }

  /** How the agent says it can sign in (ACP `authMethods`, as listed). */
  get authMethods(): readonly unknown[] {
    return this.#authMethods;
  }

  /** Signs in with one of the agent's methods, then starts the session (one handshake, at once). */
  signIn(methodId: string): void {
    this.#signIn = methodId;
    this.enable();
  }

  /** Starts (or restarts) connecting, with reconnects, until disable(). */
  enable(): void {
    if (this.#run && !this.#run.signal.aborted) {
      this.#wake?.();
      return;
    }
    const run = new AbortController();
    this.#run = run;
    void this.#loop(run.signal);
  }

  /** Closes the socket and stays disconnected until enable(). */
  disable(): void {
    this.#run?.abort(new Error('disabled'));
    this.#run = undefined;
    this.permissions.cancelAll();
    this.elicitations.cancelAll();
    this.#teardown();
    this.#setStatus('disabled');
  }

  /** Queues a message; it leaves as soon as the agent is connected and idle. */
  send(text: string, id?: string): QueuedMessage {
    const message = this.outbox.enqueue(text, this.#options.clock.now(), id);
    this.#queueChanged();
    void this.#pump();
    return message;
  }

  /** Stop: cancels the running turn and answers pending permission and input requests `cancelled`. */
  async cancel(): Promise<void> {
    this.permissions.cancelAll();
    this.elicitations.cancelAll();
    const agent = this.#connection?.agent;
    if (this.#turn && agent && this.#sessionId) {
      await agent.notify('session/cancel', { sessionId: this.#sessionId }).catch(() => undefined);
    }
  }

  /**
   * The servers offered to the agent changed (a connector turned on or off). A gateway need not act
   * on `tools/list_changed` (OpenAB does not), so the whole set is declared again with
   * `session/resume` once the agent is idle; a broker that cannot resume gets a reconnect instead.
   */
  redeclare(): void {
    this.#redeclarePending = true;
    void this.#redeclareWhenIdle();
  }

  async #redeclareWhenIdle(): Promise<void> {
    const connection = this.#connection;
    const sessionId = this.#sessionId;
    if (!this.#redeclarePending || this.#redeclaring || this.#turn || !connection || !sessionId) return;
    if (this.#status !== 'connected' && this.#status !== 'unresponsive') return;
    this.#redeclarePending = false;
    if (!this.#canResume) {
      this.#droppedBecause = 'the tool servers offered to the agent changed';
      connection.close(new Error('re-declaring'));
      return;
    }
    const params = { sessionId, cwd: this.#options.cwd ?? '/', mcpServers: this.#options.declarations() };
    this.#redeclaring = connection.agent
      .request('session/resume', params, {
        cancellationSignal: AbortSignal.timeout(this.#timing.handshakeTimeoutMs),
        stopWaitingOnCancel: true,
      })
      .then(
        () => undefined,
        (error: unknown) => {
          const why = error instanceof RequestError ? agentErrorText(error) : (error as Error).message;
          this.#options.events.notice(`could not declare the changed tool servers (${why}); reconnect to try again`);
        },
      );
    await this.#redeclaring;
    this.#redeclaring = undefined;
    void this.#redeclareWhenIdle();
    void this.#pump();
  }

  /** Forgets the session so the next connect starts a new one. */
  async forgetSession(): Promise<void> {
    this.#sessionId = undefined;
    await this.#options.sessions.set(undefined);
  }

  /** The live session's agent, for a request about the session itself. */
  #sessionAgent(): { agent: ClientContext; sessionId: string } {
    const agent = this.#connection?.agent;
    const sessionId = this.#sessionId;
    if (!agent || !sessionId || (this.#status !== 'connected' && this.#status !== 'unresponsive')) {
      throw new Error('the agent is not connected');
    }
    return { agent, sessionId };
  }

  #bounded() {
    return { cancellationSignal: AbortSignal.timeout(this.#timing.handshakeTimeoutMs), stopWaitingOnCancel: true };
  }

  /** `session/set_mode`: the agent confirms with its answer (and usually a `current_mode_update`). */
  async setMode(modeId: string): Promise<void> {
    const { agent, sessionId } = this.#sessionAgent();
    await agent.request('session/set_mode', { sessionId, modeId }, this.#bounded());
  }

  /** `session/set_config_option` (the model, among others): answered with every option's new value. */
  async setConfigOption(configId: string, value: string | boolean): Promise<SessionConfigOption[]> {
    const { agent, sessionId } = this.#sessionAgent();
    const params: SetSessionConfigOptionRequest =
      typeof value === 'boolean' ? { sessionId, configId, type: 'boolean', value } : { sessionId, configId, value };
    const answer: SetSessionConfigOptionResponse = await agent.request(
      'session/set_config_option',
      params,
      this.#bounded(),
    );
    return answer.configOptions;
  }

  /**
   * Ends the session with `session/close` where the broker takes it, then forgets it, so the next
   * connect starts a new one. Says whether the agent was told.
   */
  async closeSession(): Promise<boolean> {
    const agent = this.#connection?.agent;
    const sessionId = this.#sessionId;
    let told = false;
    const live = this.#status === 'connected' || this.#status === 'unresponsive';
    if (agent && sessionId && this.#canClose && live) {
      await this.cancel();
      told = await agent.request('session/close', { sessionId }, this.#bounded()).then(
        () => true,
        () => false,
      );
    }
    await this.forgetSession();
    return told;
  }

  async #loop(signal: AbortSignal): Promise<void> {
    let attempt = 0;
    let refusals = 0;
    while (!signal.aborted) {
      if (refusals < 2) this.#setStatus('connecting');
      const failure = await this.#connectOnce(signal, () => (attempt = 0));
      if (signal.aborted) return;
      if (failure.kind === 'needs_signin' || failure.kind === 'refused') {
        this.#setStatus(failure.kind, failure.detail);
        await this.#park(signal);
        attempt = 0;
        refusals = 0;
        continue;
      }
      if (failure.kind === 'auth_failed' || failure.kind === 'not_admitted' || failure.kind === 'wrong_path') {
        // The broker said so in its close frame: no doubt to wait out.
        refusals = 2;
        this.#setStatus(failure.kind, failure.detail, failure.extensionId ? { extensionId: failure.extensionId } : {});
        // Keep trying, slowly: a broker restarted with the right token or id heals without a click.
        await this.#sleepOrWake(this.#timing.backoff.capMs, signal);
        continue;
      }
      if (failure.kind === 'rejected' || failure.kind === 'not_broker') {
        // A server that turns a socket away without a reason may be one that is just restarting:
        // believe it only when it repeats.
        if (++refusals < 2) {
          await this.#sleepOrWake(this.#timing.backoff.baseMs, signal);
          continue;
        }
        this.#setStatus(failure.kind, failure.detail);
        await this.#sleepOrWake(this.#timing.backoff.capMs, signal);
        continue;
      }
      refusals = 0;
      if (failure.kind === 'closed') {
        const why = this.#droppedBecause ?? failure.detail;
        this.#options.events.notice(`${why}; reconnecting`);
      }
      this.#droppedBecause = undefined;
      this.#setStatus(failure.kind === 'unreachable' ? 'unreachable' : 'connecting', failure.detail);
      const delay = backoffDelay(attempt++, this.#timing.backoff, this.#options.random);
      await this.#sleepOrWake(delay, signal);
    }
  }

  #methodName(id: string | undefined): string | undefined {
    if (id === undefined) return undefined;
    const method = this.#authMethods.find((m) => (m as { id?: unknown }).id === id) as { name?: unknown } | undefined;
    return typeof method?.name === 'string' ? method.name : id;
  }

  /** Waits for the user: a sign-in, a click on the chip (enable) or disable. */
  async #park(signal: AbortSignal): Promise<void> {
    await new Promise<void>((resolve) => {
      this.#wake = resolve;
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    this.#wake = undefined;
  }

  async #sleepOrWake(ms: number, signal: AbortSignal): Promise<void> {
    const wake = new AbortController();
    this.#wake = () => wake.abort();
    await sleep(this.#options.clock, ms, AbortSignal.any([signal, wake.signal])).catch(() => undefined);
    this.#wake = undefined;
  }

  /** One socket's life. Resolves with why it ended. */
  async #connectOnce(signal: AbortSignal, onEstablished: () => void): Promise<Failure> {
    const { WebSocket, observation } = observeSocket(this.#options.WebSocket, () => this.#liveness?.noteInbound());
    const app = this.#options.tunnel.install(
      client({ name: 'tabwright' })
        .onNotification('session/update', ({ params }) => this.#onUpdate(params.sessionId, params.update))
        .onRequest('session/request_permission', ({ params }) => this.#onPermission(params))
        .onRequest('elicitation/create', ({ params, signal }) => this.elicitations.ask(params, signal)),
    );
    const socket = createWebSocketStream(this.#options.url, {
      protocols: subprotocolsFor(this.#options.token),
      WebSocket,
    });
    const stream = { ...socket, readable: coalesceTextChunks(socket.readable, this.#options.clock) };
    const connection = app.connect(stream);
    this.#connection = connection;
    this.#options.tunnel.attach(connection);
    const stop = () => connection.close(new Error('disconnected'));
    signal.addEventListener('abort', stop, { once: true });
    // A server that opened without ACP's subprotocol will not answer the handshake: stop at once
    // rather than wait for the handshake to time out (observeSocket has read the protocol by now).
    observation.socket?.addEventListener?.('open', () => {
      if (observation.protocol !== ACP_SUBPROTOCOL) stop();
    });
    let refusal: Failure | undefined;
    const signingIn = this.#signIn;
    try {
      await this.#handshake(connection.agent, observation);
      onEstablished();
      this.#setStatus('connected');
      this.#startLiveness(connection);
      void this.#pump();
      await connection.closed;
    } catch (error) {
      // An answer that refuses the handshake is the broker's word; anything else is read from the socket.
      if (error instanceof SignInFailure && !signal.aborted) {
        refusal = handshakeFailure(error.cause, this.#methodName(signingIn));
      } else if (error instanceof RequestError && !signal.aborted) refusal = handshakeFailure(error, undefined);
    } finally {
      signal.removeEventListener('abort', stop);
      this.#teardown(connection);
    }
    // A close code from the broker, or a server that never spoke ACP, says more than the handshake
    // error it caused.
    return (
      brokerRefusal(this.#options.url, observation) ??
      (observation.opened && observation.protocol !== ACP_SUBPROTOCOL ? undefined : refusal) ??
      classifyFailure(this.#options.url, observation, this.#options.probe)
    );
  }

  async #handshake(agent: ClientContext, observation: SocketObservation): Promise<void> {
    const timeout = () => {
      const signal = AbortSignal.timeout(this.#timing.handshakeTimeoutMs);
      return { cancellationSignal: signal, stopWaitingOnCancel: true };
    };
    const init: InitializeResponse = await agent.request(
      'initialize',
      {
        protocolVersion: 1,
        clientCapabilities: {
          fs: { readTextFile: false, writeTextFile: false },
          terminal: false,
          elicitation: { form: {}, url: {} },
        },
        clientInfo: this.#options.clientInfo,
      },
      timeout(),
    );
    if (observation.protocol !== 'acp.v1') throw new Error('subprotocol');
    this.#dropsRepeats = brokerDropsRepeats(init._meta);
    this.#authMethods = init.authMethods ?? [];
    this.#agentInfo = init.agentInfo ?? undefined;
    this.#canResume = Boolean(init.agentCapabilities?.sessionCapabilities?.resume);
    this.#canClose = Boolean(init.agentCapabilities?.sessionCapabilities?.close);
    // A handshake declares the current set: nothing is left to re-declare.
    this.#redeclarePending = false;
    const chosen = this.#signIn;
    if (chosen) {
      try {
        await agent.request('authenticate', { methodId: chosen }, timeout());
        this.#signIn = undefined;
      } catch (error) {
        if (!(error instanceof RequestError) || error.code === -32800) throw error;
        // The agent said no: the choice is spent, and the user picks again.
        this.#signIn = undefined;
        throw new SignInFailure(error);
      }
    }
    const known = this.#sessionId ?? (await this.#options.sessions.get());
    const method = planSession(init.agentCapabilities, known);
    const base = { cwd: this.#options.cwd ?? '/', mcpServers: this.#options.declarations() };
    let how: SessionMethod = method;
    let note: string | undefined;
    let setup: SessionSetup;
    if (method === 'session/new') {
      const created: NewSessionResponse = await agent.request('session/new', base, timeout());
      this.#sessionId = created.sessionId;
      setup = created;
    } else {
      try {
        this.#reopening = known;
        const asked = agent.request(method, { ...base, sessionId: known! }, timeout());
        setup = (await asked.finally(() => (this.#reopening = undefined))) ?? {};
        this.#sessionId = known;
      } catch (error) {
        if (!(error instanceof RequestError)) throw error;
        how = 'session/new';
        note = `The broker no longer has the previous session (it may have restarted), so a new one was started: the agent does not remember this conversation. (${error.message})`;
        const created: NewSessionResponse = await agent.request('session/new', base, timeout());
        this.#sessionId = created.sessionId;
        setup = created;
      }
    }
    // Said before anything else is awaited: the session's updates are taken from now on, and one
    // the agent sends right after answering (its slash commands) must not precede the session's
    // start, which clears what a new session knew.
    this.#options.events.session(this.#sessionId!, how, note, {
      modes: setup.modes,
      configOptions: setup.configOptions,
    });
    await this.#options.sessions.set(this.#sessionId);
    // A new session has not seen the turn the agent was answering: sending it again would start
    // the task over, so it ends here and the person decides.
    if (how === 'session/new' && this.outbox.inflight?.answered) this.#endInterrupted('new-session');
  }

  #endInterrupted(why: 'dropped' | 'new-session'): void {
    const lost = this.outbox.complete();
    if (!lost) return;
    this.#queueChanged();
    this.#options.events.turnEnded(lost.id, { error: INTERRUPTED_TEXT[why], interrupted: why });
  }

  #startLiveness(connection: ClientConnection): void {
    this.#liveness = new LivenessMonitor({
      clock: this.#options.clock,
      intervalMs: this.#timing.heartbeatMs,
      timeoutMs: this.#timing.probeTimeoutMs,
      probe: async (signal) => {
        try {
          await connection.agent.request(
            'tabwright/ping',
            {},
            { cancellationSignal: signal, stopWaitingOnCancel: true },
          );
        } catch (error) {
          // Any JSON-RPC answer, even "method not found", proves the broker is alive.
          if (!(error instanceof RequestError) || error.code === -32800) throw error;
        }
      },
      turnRunning: () => this.busy,
      onResponsive: (responsive) => {
        if (this.#connection === connection) this.#setStatus(responsive ? 'connected' : 'unresponsive');
      },
      onDead: () => {
        this.#droppedBecause = 'the broker stopped answering (no reply to two probes)';
        connection.close(new Error('unresponsive'));
      },
    });
    this.#liveness.start();
  }

  #teardown(connection = this.#connection): void {
    if (!connection) return;
    connection.close();
    if (this.#connection !== connection) return;
    this.#liveness?.stop();
    this.#liveness = undefined;
    this.#options.tunnel.close();
    this.#connection = undefined;
  }

  async #pump(): Promise<void> {
    const agent = this.#connection?.agent;
    const sessionId = this.#sessionId;
    if (
      !agent ||
      this.#turn ||
      this.#redeclaring ||
      !sessionId ||
      (this.#status !== 'connected' && this.#status !== 'unresponsive')
    ) {
      return;
    }
    if (this.#redeclarePending) return void this.#redeclareWhenIdle();
    const batch = this.outbox.take();
    if (!batch) return;
    const text = batchText(batch);
    const params = {
      sessionId,
      prompt: [{ type: 'text' as const, text }],
      _meta: { [MESSAGE_ID_META]: batch.id },
    };
    const frameBytes = new TextEncoder().encode(JSON.stringify(params)).length + 64;
    // OpenAB refuses a method-bearing frame over the limit; refuse it here first, with a reason.
    if (frameBytes > MAX_METHOD_FRAME_BYTES) {
      this.outbox.complete();
      this.#queueChanged();
      this.#options.events.turnEnded(batch.id, {
        error: `This message is ${(frameBytes / 1024).toFixed(0)} KiB; the broker accepts at most ${MAX_METHOD_FRAME_BYTES / 1024} KiB per message. Shorten it or split it.`,
      });
      return void this.#pump();
    }
    this.#turn = batch;
    this.#queueChanged();
    if (batch.attempts === 1) this.#options.events.turnStarted(batch);
    try {
      const response: PromptResponse = await agent.request('session/prompt', params);
      this.outbox.complete();
      this.#options.events.turnEnded(batch.id, { stopReason: response.stopReason });
    } catch (error) {
      if (this.#connection?.agent === agent && error instanceof RequestError) {
        this.outbox.complete();
        // The broker stopped while it ran this turn, and does not run it twice: the reply was cut.
        const cut = isJsonObject(error.data) && error.data[TURN_CUT_META] === true;
        this.#options.events.turnEnded(
          batch.id,
          cut ? { error: INTERRUPTED_TEXT.dropped, interrupted: 'dropped' } : { error: agentErrorText(error) },
        );
      } else if (this.outbox.interrupted(this.#dropsRepeats) === 'lost-after-reply') {
        this.#options.events.turnEnded(batch.id, { error: INTERRUPTED_TEXT.dropped, interrupted: 'dropped' });
      } else {
        this.#options.events.turnInterrupted(batch.id);
      }
    } finally {
      this.#turn = undefined;
      this.#queueChanged();
    }
    if (this.#redeclarePending) return void this.#redeclareWhenIdle();
    void this.#pump();
  }

  #onUpdate(sessionId: string, update: SessionUpdate): void {
    if (sessionId !== this.#sessionId && sessionId !== this.#reopening) return;
    if (this.#turn) this.outbox.noteAnswered();
    this.#options.events.update(update, this.#turn?.id);
  }

  #onPermission(request: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    return this.permissions.ask(request);
  }

  #queueChanged(): void {
    this.#options.events.queueChanged(this.outbox.pending, this.outbox.inflight);
  }

  #setStatus(status: ConnectionStatus, detail?: string, facts?: StatusFacts): void {
    this.#status = status;
    this.#options.events.status(status, detail, facts);
  }
}
