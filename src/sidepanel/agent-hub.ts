/**
 * All of this window's agents: one ACP connection, tunnel and set of tool servers each. The hub
 * turns connection events into chat and roster changes and owns the kill switch.
 */
import type { McpServer, SessionUpdate } from '@agentclientprotocol/sdk/unstable';
import { AgentConnection, type ConnectionStatus, type ConnectionTiming } from '../acp/agent-connection';
import type { Clock } from '../acp/clock';
import type { ReachabilityProbe } from '../acp/failure';
import { signInOptions, type SignInOption } from '../acp/sign-in';
import type { PermissionPrompt } from '../acp/permissions';
import type { ElicitationPrompt } from '../acp/elicitation';
import { agentErrorText } from '../acp/agent-error';
import { RequestError } from '@agentclientprotocol/sdk/unstable';
import type { DeclaredServer } from '../mcp-server/openab-tunnel';
import type { KillSwitch } from '../mcp-server/gates/kill-switch';
import { McpTunnel } from '../mcp-server/tunnel';
import { Room, type RoomMode } from '../room/room';
import type { AgentProfile, Dialect } from '../shared/settings';
import type { PermissionChoices } from '../acp/permission-choices';
import type { SessionIdStore, TokenStore } from '../shared/stores';
import type { AgentOffers } from './agent-offers';
import type { ChatModel, UserItem } from './chat-model';
import {
  applySessionSetup,
  applySessionState,
  configView,
  emptySessionState,
  modeName,
  type SessionState,
  type SlashCommand,
} from './session-state';
import { t } from './i18n';

export interface AgentView {
  profile: AgentProfile;
  status: ConnectionStatus;
  detail: string | undefined;
  /** For `not_admitted`: the extension id the broker wants to be started with. */
  extensionId: string | undefined;
  busy: boolean;
  pending: number;
  /** What the agent's session says about itself: title, mode, commands, usage. */
  session: SessionState;
  /** How the agent can sign in, in words (shown while it needs signing in). */
  signIn: SignInOption[];
  /** The agent's own name for itself (ACP `agentInfo.name`), once it has said. */
  agentInfoName: string | undefined;
}

export interface HubOptions {
  windowId: number;
  version: string;
  chat: ChatModel;
  killSwitch: KillSwitch;
  tokens: TokenStore;
  sessionIds: SessionIdStore;
  permissions: PermissionChoices;
  WebSocket: new (url: string, protocols?: string | string[]) => WebSocket;
  probe: ReachabilityProbe;
  clock: Clock;
  timing?: Partial<ConnectionTiming>;
  mintId(): string;
  /** What each agent is offered, and the ids it knows the servers by. */
  offers: Pick<AgentOffers, 'declare' | 'serverId' | 'ensureServerId'>;
  onPermission(agent: AgentProfile, prompt: PermissionPrompt): void;
  onElicitation(agent: AgentProfile, prompt: ElicitationPrompt): void;
  /** Room settings, read on every message: mention or ambient routing, and the loop-guard cap. */
  roomMode(): RoomMode;
  loopGuardCap(): number;
  /** Why the organisation's policy forbids the broker at this URL, if it does: the agent stays off. */
  brokerRefusal?(url: string): string | undefined;
}

interface Runtime {
  profile: AgentProfile;
  connection: AgentConnection;
  tunnel: McpTunnel;
  declared: DeclaredServer[];
  status: ConnectionStatus;
  detail: string | undefined;
  extensionId: string | undefined;
  session: SessionState;
}

export function declarationFor(dialect: Dialect, id: string, name: string): McpServer {
  if (dialect === 'a') return { type: 'acp', id, name } as unknown as McpServer;
  if (dialect === 'b') return { type: 'acp', serverId: id, name };
  return { type: 'acp', id, serverId: id, name } as McpServer;
}

export class AgentHub {
  readonly #runtimes = new Map<string, Runtime>();
  readonly #listeners = new Set<() => void>();
  readonly #room: Room;

  constructor(private readonly options: HubOptions) {
    this.#room = new Room({
      mode: () => options.roomMode(),
      loopCap: () => options.loopGuardCap(),
      agents: () =>
        [...this.#runtimes.values()]
          .filter((r) => r.profile.enabled)
          .map((r) => ({ id: r.profile.id, name: r.profile.name })),
      deliver: (agentId, text) => this.#runtimes.get(agentId)?.connection.send(text),
      notice: (text) => options.chat.notice(text, undefined, 'warning'),
    });
  }

  /** Whether the loop guard has paused the agents' conversation until the human speaks. */
  get roomPaused(): boolean {
    return this.#room.paused;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  views(): AgentView[] {
    return [...this.#runtimes.values()].map((r) => ({
      profile: r.profile,
      status: r.status,
      detail: r.detail,
      extensionId: r.extensionId,
      busy: r.connection.busy,
      pending: r.connection.outbox.pending.length,
      session: r.session,
      signIn: r.status === 'needs_signin' ? signInOptions(r.connection.authMethods) : [],
      agentInfoName: r.connection.agentInfo?.name,
    }));
  }

  runtime(agentId: string): AgentConnection | undefined {
    return this.#runtimes.get(agentId)?.connection;
  }

  async add(profile: AgentProfile): Promise<void> {
    // Messages still waiting for the old connection go to the new one, so nothing typed is lost;
    // the new outbox reports them, replacing the old one's report in the transcript.
    const carried = this.#runtimes.get(profile.id)?.connection.outbox.owed() ?? [];
    this.#drop(profile.id);
    await this.options.permissions.preload(profile.id);
    const token = await this.options.tokens.get(profile.id);
    const runtime: Runtime = {
      profile,
      declared: [],
      status: 'disabled',
      detail: undefined,
      extensionId: undefined,
      session: emptySessionState(),
      tunnel: undefined as unknown as McpTunnel,
      connection: undefined as unknown as AgentConnection,
    };
    runtime.declared = this.#declaredServers(profile);
    runtime.tunnel = new McpTunnel({ declared: () => runtime.declared, mintId: this.options.mintId });
    runtime.connection = new AgentConnection({
      url: profile.url,
      token,
      clientInfo: { name: 'tabwright', title: 'Tabwright', version: this.options.version },
      declarations: () => {
        runtime.declared = this.#declaredServers(runtime.profile);
        return runtime.declared.map((d) => declarationFor(runtime.profile.dialect, d.acpId, d.server.name));
      },
      tunnel: runtime.tunnel,
      WebSocket: this.options.WebSocket,
      probe: this.options.probe,
      clock: this.options.clock,
      mintId: this.options.mintId,
      sessions: {
        get: () => this.options.sessionIds.get(this.options.windowId, profile.id),
        set: (id) => this.options.sessionIds.set(this.options.windowId, profile.id, id),
      },
      permissionMemory: this.options.permissions.memoryFor(profile.id),
      ...(this.options.timing ? { timing: this.options.timing } : {}),
      events: {
        status: (status, detail, facts) => {
          runtime.status = status;
          runtime.detail = detail;
          runtime.extensionId = facts?.extensionId;
          this.#changed();
        },
        session: (_id, how, note, setup) => {
          // A new session starts from what the agent says now; a resumed one keeps what it knew.
          if (how === 'session/new') runtime.session = emptySessionState();
          applySessionSetup(runtime.session, setup);
          if (note) this.options.chat.notice(`${runtime.profile.name}: ${note}`, profile.id);
          this.#changed();
        },
        turnStarted: () => {
          this.options.chat.startTurn(profile.id, runtime.profile.name);
          this.#changed();
        },
        update: (update) => this.#onUpdate(runtime, update),
        turnInterrupted: () => {
          this.options.chat.interruptTurn(profile.id);
          this.#changed();
        },
        turnEnded: (_batch, outcome) => {
          const reply = this.options.chat.replyText(profile.id);
          const interrupted = 'error' in outcome ? outcome.interrupted : undefined;
          this.options.chat.endTurn(
            profile.id,
            interrupted ? { error: t(interrupted === 'dropped' ? 'replyCutDropped' : 'replyCutNewSession') } : outcome,
          );
          this.#relay(runtime, reply, 'error' in outcome || outcome.stopReason === 'cancelled');
          this.#changed();
        },
        permission: (prompt) => this.options.onPermission(runtime.profile, prompt),
        elicitation: (prompt) => {
          this.options.onElicitation(runtime.profile, prompt);
          this.#changed();
          void prompt.settled.then(() => this.#changed());
        },
        notice: (text) => this.options.chat.notice(`${runtime.profile.name}: ${text}`, profile.id),
        queueChanged: (pending) => {
          // A replaced connection still settling its last turn no longer speaks for the agent.
          if (this.#runtimes.get(profile.id) !== runtime) return;
          this.options.chat.setQueue(
            profile.id,
            pending.map((message) => message.id),
          );
          this.#changed();
        },
      },
    });
    this.#runtimes.set(profile.id, runtime);
    for (const message of carried) runtime.connection.send(message.text, message.id);
    const forbidden = this.options.brokerRefusal?.(profile.url);
    if (forbidden) runtime.detail = forbidden;
    else if (profile.enabled && !this.options.killSwitch.engaged) runtime.connection.enable();
    this.#changed();
  }

  #onUpdate(runtime: Runtime, update: SessionUpdate): void {
    const id = runtime.profile.id;
    const changed = applySessionState(runtime.session, update);
    if (changed) {
      const mode = modeName(runtime.session);
      if (changed === 'mode' && mode) this.options.chat.notice(t('modeChanged', runtime.profile.name, mode), id);
      this.#changed();
      return;
    }
    // A loaded session replays its history while connecting; the transcript already holds it.
    if (runtime.status === 'connecting' && this.options.chat.hasItemsFrom(id)) return;
    this.options.chat.applyUpdate(id, runtime.profile.name, update);
  }

  /** Changes an agent's settings; connection settings reconnect it, a new name does not. */
  async update(profile: AgentProfile, reconnect: boolean): Promise<void> {
    const runtime = this.#runtimes.get(profile.id);
    if (!runtime || reconnect) return this.add(profile);
    runtime.profile = profile;
    this.#changed();
  }

  /** Gives an agent back, in order, the restored messages its outbox held when the panel closed. */
  requeue(agentId: string, messages: readonly UserItem[]): void {
    const connection = this.#runtimes.get(agentId)?.connection;
    for (const message of messages) connection?.send(message.text, message.id);
    this.#changed();
  }

  /** Whether any agent is answering or waiting for the user's answer to a request. */
  busy(): boolean {
    return [...this.#runtimes.values()].some(
      (r) =>
        r.connection.busy ||
        r.connection.permissions.pending.length > 0 ||
        r.connection.elicitations.pending.length > 0,
    );
  }

  /** Switches the agent's mode (`session/set_mode`); the agent's answer confirms it. */
  async setMode(agentId: string, modeId: string): Promise<void> {
    const runtime = this.#runtimes.get(agentId);
    if (!runtime) return;
    try {
      await runtime.connection.setMode(modeId);
      runtime.session.modeId = modeId;
    } catch (error) {
      this.#switchFailed(runtime, t('detailMode'), error);
    }
    this.#changed();
  }

  /** Sets one of the agent's session options (the model, among others); the agent answers with all of them. */
  async setConfigOption(agentId: string, configId: string, value: string | boolean): Promise<void> {
    const runtime = this.#runtimes.get(agentId);
    if (!runtime) return;
    try {
      const options = await runtime.connection.setConfigOption(configId, value);
      runtime.session.config = options.map(configView);
    } catch (error) {
      const name = runtime.session.config.find((option) => option.id === configId)?.name ?? configId;
      this.#switchFailed(runtime, name, error);
    }
    this.#changed();
  }

  #switchFailed(runtime: Runtime, what: string, error: unknown): void {
    const why = error instanceof RequestError ? agentErrorText(error) : (error as Error).message;
    this.options.chat.notice(t('switchFailed', runtime.profile.name, what, why), runtime.profile.id, 'error');
  }

  /** Ends the agent's session (`session/close`) and leaves it disconnected; the next connect starts a new one. */
  async endSession(agentId: string): Promise<void> {
    const runtime = this.#runtimes.get(agentId);
    if (!runtime) return;
    const told = await runtime.connection.closeSession();
    runtime.connection.disable();
    runtime.session = emptySessionState();
    this.options.chat.notice(t(told ? 'sessionEnded' : 'sessionEndedUntold', runtime.profile.name), agentId);
    this.#changed();
  }

  /** Slash commands offered by the connected agents. */
  commands(): Array<SlashCommand & { agentName: string }> {
    return [...this.#runtimes.values()].flatMap((r) =>
      r.status === 'connected' ? r.session.commands.map((command) => ({ ...command, agentName: r.profile.name })) : [],
    );
  }

  /** Disconnects one agent until it is reconnected (the kill switch stays as it is). */
  disconnect(agentId: string): void {
    this.#runtimes.get(agentId)?.connection.disable();
    this.#changed();
  }

  #declaredServers(profile: AgentProfile, asked: 'declaring' | 'comparing' = 'declaring'): DeclaredServer[] {
    return this.options.offers
      .declare(profile, asked)
      .map(({ key, server }) => ({ acpId: this.options.offers.ensureServerId(profile.id, key), server }));
  }

  /**
   * The servers offered to agents changed: each agent that is now offered a server it was not
   * declared is told the whole set again. A server taken away stays declared until the next
   * handshake and refuses every call with its reason (turned off, site not allowed), so the agent
   * learns why instead of finding the namespace gone.
   */
  redeclare(): void {
    for (const runtime of this.#runtimes.values()) {
      const current = new Set(runtime.declared.map((d) => d.acpId));
      const added = this.#declaredServers(runtime.profile, 'comparing').some((d) => !current.has(d.acpId));
      if (added) runtime.connection.redeclare();
    }
  }

  /** Tells every agent offered the server `key` that its tool list changed (`notifications/tools/list_changed`). */
  announceListChanged(key: string): void {
    for (const runtime of this.#runtimes.values()) {
      const id = this.options.offers.serverId(runtime.profile.id, key);
      if (id) void runtime.tunnel.announceListChanged(id);
    }
  }

  /** The agent leaves the panel: its session is closed at the agent (where the broker can), then the socket. */
  remove(agentId: string): Promise<void> {
    const runtime = this.#runtimes.get(agentId);
    if (!runtime) return Promise.resolve();
    this.#runtimes.delete(agentId);
    // What it had still to take goes with it: no agent is left to take it.
    this.options.chat.setQueue(agentId, []);
    this.#changed();
    return runtime.connection.closeSession().then(
      () => runtime.connection.disable(),
      () => runtime.connection.disable(),
    );
  }

  /** Replaces a runtime: the session goes on in the next connection. */
  #drop(agentId: string): void {
    const runtime = this.#runtimes.get(agentId);
    if (!runtime) return;
    runtime.connection.disable();
    this.#runtimes.delete(agentId);
    this.#changed();
  }

  /**
   * Sends one user message: to the given agents, or else as the room routes it (the agents it
   * @mentions, or everyone). The human speaking also lifts a paused loop guard.
   */
  send(text: string, to: string[]): void {
    const routed = this.#room.fromHuman(text).map((agent) => agent.id);
    const targets = to.length ? to : routed;
    const item = this.options.chat.addUser(text, targets);
    for (const id of targets) this.#runtimes.get(id)?.connection.send(text, item.id);
  }

  /** An agent's finished (or stopped) reply goes on to the agents the room says should hear it. */
  #relay(runtime: Runtime, reply: string | undefined, partial: boolean): void {
    if (!reply?.trim()) return;
    const targets = this.#room.fromAgent(runtime.profile.id, reply, partial);
    if (targets.length === 0) return;
    const names = targets.map((agent) => agent.name).join(', ');
    this.options.chat.notice(t('relayedTo', runtime.profile.name, names), runtime.profile.id);
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.#runtimes.values()].map((r) => r.connection.cancel()));
  }

  /** The kill switch: every connection closes and nothing runs until an agent is reconnected. */
  disconnectAll(): void {
    this.options.killSwitch.engage();
    for (const runtime of this.#runtimes.values()) runtime.connection.disable();
    this.#changed();
  }

  /** Signs an agent in with the method the user picked, then reconnects it. */
  signIn(agentId: string, methodId: string): void {
    this.options.killSwitch.release();
    this.#runtimes.get(agentId)?.connection.signIn(methodId);
    this.#changed();
  }

  reconnect(agentId: string): void {
    this.options.killSwitch.release();
    this.#runtimes.get(agentId)?.connection.enable();
    this.#changed();
  }
}
