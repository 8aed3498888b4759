/**
 * Which servers each agent gets, decided here and nowhere else. The candidates are the browser
 * tools, then every enabled connector, then each site whose page tools are offered, in that order; the agent's current profile (browser access,
 * hidden servers) and the per-session limit pick the declared ones (`exposureOf`). The same answer
 * is read on every call, so taking a server away applies at once. Each declared server keeps one
 * id per agent, stored in its profile so it survives reconnects. Pure: the servers are made by
 * the factories passed in.
 */
import { exposureOf, isOffered, type Exposure } from '../mcp-server/gates/exposure';
import type { ToolServer } from '../mcp-server/mcp-core';
import type { AgentProfile } from '../shared/settings';
import type { SettingsStore } from '../shared/settings-store';

export interface OfferedServer {
  /** Stable key of the server for this agent: `browser`, or `connector:<id>`. */
  key: string;
  server: ToolServer;
}

/** What a server needs to know about the agent it serves, read live. */
export interface ServedAgent {
  id: string;
  name(): string;
  /** Whether the agent is still offered this server now. */
  exposed(): boolean;
}

/** A server that could be offered: its declared name, its stable key, and how to get it for an agent. */
export interface OfferableServer {
  name: string;
  key: string;
  /** The server for this agent (the maker keeps one per agent, so its declared id stays put). */
  server(agent: ServedAgent): ToolServer;
}

export interface AgentOffersOptions {
  store: SettingsStore;
  /** The browser-tools server for this agent (the factory keeps one per agent and name). */
  browserServer(profile: AgentProfile, agent: ServedAgent): ToolServer;
  /** The other servers on offer now, in declaration order (connectors, then page tools). */
  others(): OfferableServer[];
  mintId(): string;
  /** Whether the organisation's policy lets this agent be offered the server `key` (all, when absent). */
  allows?(profile: AgentProfile, key: string): boolean;
}

export const BROWSER_SERVER_KEY = 'browser';

type OfferChoices = Pick<AgentProfile, 'id' | 'browserAccess' | 'hiddenServers'>;

/** Whether the person changed what any agent is offered (browser access, or a server shown or hidden). */
export function offerChoicesChanged(previous: readonly OfferChoices[], next: readonly OfferChoices[]): boolean {
  const choices = (agents: readonly OfferChoices[]) =>
    agents.map((a) => JSON.stringify([a.id, a.browserAccess, [...a.hiddenServers].sort()])).join('\n');
  return choices(previous) !== choices(next);
}

export class AgentOffers {
  readonly #declaredNow = new Map<string, string[]>();
  /** Ids minted for agents that are no longer stored, so they stay put for this panel's life. */
  readonly #minted = new Map<string, string>();

  constructor(private readonly options: AgentOffersOptions) {}

  #profile(agentId: string): AgentProfile | undefined {
    return this.options.store.get().agents.find((agent) => agent.id === agentId);
  }

  #candidates(profile: AgentProfile): OfferableServer[] {
    const browser: OfferableServer = {
      name: profile.serverName,
      key: BROWSER_SERVER_KEY,
      server: (agent) => this.options.browserServer(profile, agent),
    };
    const allows = this.options.allows;
    const all = [browser, ...this.options.others()];
    return allows ? all.filter(({ key }) => allows(profile, key)) : all;
  }

  /** Names of every server this agent could be offered, in declaration order. */
  candidates(agentId: string): string[] {
    const profile = this.#profile(agentId);
    return profile ? this.#candidates(profile).map(({ name }) => name) : [];
  }

  exposure(agentId: string): Exposure | undefined {
    const profile = this.#profile(agentId);
    return profile && exposureOf(profile, this.candidates(agentId));
  }

  /** Whether calls to `server` may run for this agent now. */
  exposedFor(agentId: string, server: string): () => boolean {
    return () => {
      const profile = this.#profile(agentId);
      return profile !== undefined && isOffered(profile, server, this.candidates(agentId));
    };
  }

  /**
   * The servers declared for this agent now. The connection hands over the profile it was started
   * with; what the user set since wins. `asked` says whether they go to the agent (a handshake or
   * a re-declaration) or are only compared with what it has.
   */
  declare(started: AgentProfile, asked: 'declaring' | 'comparing' = 'declaring'): OfferedServer[] {
    const profile = this.#profile(started.id) ?? started;
    const candidates = this.#candidates(profile);
    const declared = exposureOf(
      profile,
      candidates.map(({ name }) => name),
    ).declared;
    if (asked === 'declaring') this.#declaredNow.set(profile.id, declared);
    const agentName = () => this.#profile(profile.id)?.name ?? profile.name;
    return candidates
      .filter(({ name }) => declared.includes(name))
      .map(({ name, key, server }) => ({
        key,
        server: server({ id: profile.id, name: agentName, exposed: this.exposedFor(profile.id, name) }),
      }));
  }

  /** The names declared at this agent's last handshake. */
  declaredNow(agentId: string): string[] | undefined {
    return this.#declaredNow.get(agentId);
  }

  /** The id this agent knows the server `key` by, if it was ever declared to it. */
  serverId(agentId: string, key: string): string | undefined {
    return this.#profile(agentId)?.serverIds[key] ?? this.#minted.get(`${agentId}\n${key}`);
  }

  /** The server's id for this agent, minted and stored the first time. */
  ensureServerId(agentId: string, key: string): string {
    const known = this.serverId(agentId, key);
    if (known) return known;
    const id = this.options.mintId();
    this.#minted.set(`${agentId}\n${key}`, id);
    void this.options.store.update((settings) => ({
      ...settings,
      agents: settings.agents.map((a) => (a.id === agentId ? { ...a, serverIds: { ...a.serverIds, [key]: id } } : a)),
    }));
    return id;
  }
}
