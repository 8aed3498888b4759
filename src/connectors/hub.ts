/**
 * The panel's connectors: the catalog (built-ins and imported recipes), each one's settings and
 * health, and one MCP server per enabled connector and agent. Pure: the tab port, the gates and
 * the storage are passed in.
 */
import { MAX_DECLARED_SERVERS } from '../contract/acp';
import type { SessionGrants } from '../mcp-server/gates/call-gate';
import type { GateEnvironment } from '../mcp-server/gates/types';
import type { ToolServer } from '../mcp-server/mcp-core';
import type { ConnectorSettings } from '../shared/settings';
import { ConnectorToolServer } from './connector-server';
import { createConnectorContext, signInUrl, type ConnectorTabPort } from './context';
import { ConnectorHealth, type HealthTimers } from './health';
import { recipeToConnector } from './recipe/interpreter';
import { parseRecipeText } from './recipe/validate';
import type { RecipeStore } from './recipe-store';
import type { Connector } from './sdk';
import { normaliseConnectorSite, workingSite } from './sites';

/** Of the servers OpenAB accepts per session, the browser tools take one. */
export const MAX_CONNECTOR_SERVERS = MAX_DECLARED_SERVERS - 1;

export interface ConnectorHubOptions {
  version: string;
  windowId: number;
  builtins: readonly Connector[];
  recipes: RecipeStore;
  port: ConnectorTabPort;
  gates: GateEnvironment;
  grants: SessionGrants;
  connectorSettings(): Readonly<Record<string, ConnectorSettings>>;
  saveConnectorSettings(next: Record<string, ConnectorSettings>): Promise<void>;
  healthMinutes(): number;
  timers: HealthTimers;
  /** Shows the user a sign-in prompt with a link. */
  promptSignIn(connector: Connector, url: string): void;
  log?(connectorId: string, message: string): void;
}

export interface AgentFacts {
  id: string;
  hiddenServers: readonly string[];
  name(): string;
  /** Whether the agent is still offered the server of this name (the user can withdraw one mid-session). */
  exposed?(serverName: string): boolean;
}

/** `declared`: the set of connector servers changed (needs a new declaration); `tools`: one server's tools did. */
export type ServersChange = { kind: 'declared' } | { kind: 'tools'; connectorId: string };

export const connectorServerKey = (id: string) => `connector:${id}`;

export class ConnectorHub {
  readonly health: ConnectorHealth;
  #recipes: Connector[] = [];
  readonly #servers = new Map<string, ConnectorToolServer>();
  readonly #listeners = new Set<() => void>();
  readonly #serverListeners = new Set<(change: ServersChange) => void>();

  constructor(private readonly o: ConnectorHubOptions) {
    this.health = new ConnectorHealth(
      {
        check: (connector, signal) => this.#healthCheck(connector, signal),
        signInUrl: (connector) => this.signInUrl(connector),
      },
      () => this.enabled(),
      o.timers,
    );
    this.health.onChange(() => this.#changed());
  }

  /** Loads imported recipes; returns problems with stored ones, for the user to see. */
  async load(): Promise<string[]> {
    const { recipes, problems } = await this.o.recipes.load();
    this.#recipes = recipes.filter((r) => !this.o.builtins.some((b) => b.id === r.id)).map(recipeToConnector);
    return problems;
  }

  start(): void {
    this.health.start(this.o.healthMinutes());
  }

  stop(): void {
    this.health.stop();
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  onServersChange(listener: (change: ServersChange) => void): () => void {
    this.#serverListeners.add(listener);
    return () => this.#serverListeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  #serversChanged(change: ServersChange): void {
    for (const listener of this.#serverListeners) listener(change);
    this.#changed();
  }

  all(): Connector[] {
    return [...this.o.builtins, ...this.#recipes];
  }

  get(id: string): Connector | undefined {
    return this.all().find((c) => c.id === id);
  }

  settingsOf(id: string): ConnectorSettings {
    return this.o.connectorSettings()[id] ?? { enabled: false, sites: [] };
  }

  site(connector: Connector): string | undefined {
    return workingSite(connector.matches, this.settingsOf(connector.id).sites);
  }

  signInUrl(connector: Connector): string | undefined {
    const site = this.site(connector);
    return site ? signInUrl(site, connector.auth) : undefined;
  }

  enabled(): Connector[] {
    return this.all().filter((c) => this.settingsOf(c.id).enabled);
  }

  /** The connector servers offered to an agent: enabled, not hidden for it, within the server limit. */
  serversFor(agent: AgentFacts, limit = MAX_CONNECTOR_SERVERS): Array<{ key: string; server: ToolServer }> {
    return this.enabled()
      .filter((connector) => !agent.hiddenServers.includes(connector.id))
      .slice(0, limit)
      .map((connector) => ({ key: connectorServerKey(connector.id), server: this.#serverFor(agent, connector) }));
  }

  /** One server per agent and connector id, kept for the life of the panel so its declared id stays put. */
  #serverFor(agent: AgentFacts, connector: Connector): ConnectorToolServer {
    const key = `${agent.id}:${connector.id}`;
    const cached = this.#servers.get(key);
    if (cached) return cached;
    const id = connector.id;
    const server = new ConnectorToolServer({
      id,
      connector: () => this.get(id),
      version: this.o.version,
      agentName: agent.name,
      windowId: this.o.windowId,
      site: () => this.site(this.get(id) ?? connector),
      enabled: () => this.settingsOf(id).enabled,
      ...(agent.exposed ? { exposed: () => agent.exposed!(id) } : {}),
      port: this.o.port,
      gates: this.o.gates,
      grants: this.o.grants,
      onSignedOut: (c, url) => {
        this.health.signedOut(c, url);
        this.o.promptSignIn(c, url);
      },
      onWorked: (c) => this.health.worked(c),
      log: (c, message) => this.o.log?.(c.id, message),
    });
    this.#servers.set(key, server);
    return server;
  }

  async #healthCheck(connector: Connector, signal: AbortSignal) {
    const site = this.site(connector);
    if (!site) return { state: 'no-site' as const };
    const refusal = await this.o.gates.originRefusal(site);
    if (refusal) return { state: 'not-allowed' as const, reason: refusal.replace(/^Refused: /, '') };
    const ctx = createConnectorContext({
      connectorId: connector.id,
      connectorName: connector.name,
      site,
      auth: connector.auth,
      port: this.o.port,
      urlRefusal: (url) => this.o.gates.originRefusal(url),
      signal,
      log: (message) => this.o.log?.(connector.id, `health: ${message}`),
    });
    return connector.healthCheck(ctx);
  }

  async #update(id: string, change: (current: ConnectorSettings) => ConnectorSettings): Promise<void> {
    const all = { ...this.o.connectorSettings() };
    all[id] = change(this.settingsOf(id));
    await this.o.saveConnectorSettings(all);
  }

  async setEnabled(id: string, enabled: boolean): Promise<void> {
    const connector = this.get(id);
    if (!connector || this.settingsOf(id).enabled === enabled) return;
    await this.#update(id, (current) => ({ ...current, enabled }));
    // A server already declared this session lists its tools again, or none: say so; one not
    // declared yet needs a new declaration.
    this.#serversChanged({ kind: 'tools', connectorId: id });
    this.#serversChanged({ kind: 'declared' });
    if (enabled) void this.health.check(connector);
  }

  /** Adds a site for the connector; returns what is wrong with the input, if anything. */
  async addSite(id: string, input: string): Promise<string | undefined> {
    const connector = this.get(id);
    if (!connector) return `There is no connector ${id}.`;
    const normalised = normaliseConnectorSite(input);
    if ('error' in normalised) return normalised.error;
    if (this.settingsOf(id).sites.includes(normalised.site)) return `${normalised.site} is already listed.`;
    await this.#update(id, (current) => ({ ...current, sites: [...current.sites, normalised.site] }));
    this.#changed();
    if (this.settingsOf(id).enabled) void this.health.check(connector);
    return undefined;
  }

  async removeSite(id: string, site: string): Promise<void> {
    await this.#update(id, (current) => ({ ...current, sites: current.sites.filter((s) => s !== site) }));
    this.#changed();
  }

  /** Imports a recipe from its JSON text: the connector, or the problems with the document. */
  async importRecipe(text: string): Promise<{ connector: Connector } | { errors: string[] }> {
    const check = parseRecipeText(text);
    if (!check.ok) return { errors: check.errors };
    const { recipe } = check;
    if (this.o.builtins.some((b) => b.id === recipe.id)) {
      return { errors: [`id: "${recipe.id}" is the id of a built-in connector; choose another id.`] };
    }
    const connector = recipeToConnector(recipe);
    const replaced = this.#recipes.some((r) => r.id === recipe.id);
    await this.o.recipes.put(recipe);
    this.#recipes = [...this.#recipes.filter((r) => r.id !== recipe.id), connector];
    if (replaced && this.settingsOf(recipe.id).enabled) this.#serversChanged({ kind: 'tools', connectorId: recipe.id });
    else this.#changed();
    return { connector };
  }

  async removeRecipe(id: string): Promise<void> {
    const wasEnabled = this.settingsOf(id).enabled;
    await this.o.recipes.remove(id);
    this.#recipes = this.#recipes.filter((r) => r.id !== id);
    const all = { ...this.o.connectorSettings() };
    delete all[id];
    await this.o.saveConnectorSettings(all);
    if (wasEnabled) this.#serversChanged({ kind: 'tools', connectorId: id });
    else this.#changed();
  }
}
