/**
 * The panel's connectors: the catalog (built-ins and imported recipes), each one's settings and
 * health, and one MCP server per enabled connector and agent. Pure: the tab port, the gates and
 * the storage are passed in.
 */
import type { SessionGrants } from '../mcp-server/gates/call-gate';
import type { GateEnvironment } from '../mcp-server/gates/types';
import type { ToolServer } from '../mcp-server/mcp-core';
import { ServerCache } from '../mcp-server/server-cache';
import type { ConnectorSettings } from '../shared/settings';
import { connectorToolServer } from './connector-server';
import { createConnectorContext, signInUrl, type ConnectorTabPort } from './context';
import { ConnectorHealth, type HealthTimers } from './health';
import { recipeToConnector } from './recipe/interpreter';
import { parseRecipeText } from './recipe/validate';
import type { RecipeStore } from './recipe-store';
import type { Connector } from './sdk';
import { normaliseConnectorSite, workingSite } from './sites';

export interface ConnectorHubOptions {
  version: string;
  windowId: number;
  builtins: readonly Connector[];
  recipes: RecipeStore;
  port: ConnectorTabPort;
  gates: GateEnvironment;
  grants: SessionGrants;
  connectorSettings(): Readonly<Record<string, ConnectorSettings>>;
  /** Applies a change to the stored connector settings. */
  updateConnectorSettings(
    change: (current: Readonly<Record<string, ConnectorSettings>>) => Record<string, ConnectorSettings>,
  ): Promise<void>;
  healthMinutes(): number;
  timers: HealthTimers;
  /** Shows the user a sign-in prompt with a link. */
  promptSignIn(connector: Connector, url: string): void;
  log?(connectorId: string, message: string): void;
}

export interface AgentFacts {
  id: string;
  name(): string;
  /** Whether the agent is still offered this connector's server (the user can withdraw one mid-session). */
  exposed?(): boolean;
}

/** `declared`: the set of connector servers changed (needs a new declaration); `tools`: one server's tools did. */
export type ServersChange = { kind: 'declared' } | { kind: 'tools'; connectorId: string };

export const connectorServerKey = (id: string) => `connector:${id}`;

export class ConnectorHub {
  readonly health: ConnectorHealth;
  #recipes: Connector[] = [];
  readonly #servers = new ServerCache();
  readonly #listeners = new Set<() => void>();
  readonly #serverListeners = new Set<(change: ServersChange) => void>();

  constructor(private readonly options: ConnectorHubOptions) {
    this.health = new ConnectorHealth(
      {
        check: (connector, signal) => this.#healthCheck(connector, signal),
        signInUrl: (connector) => this.signInUrl(connector),
      },
      () => this.enabled(),
      options.timers,
    );
    this.health.onChange(() => this.#changed());
  }

  /** Loads imported recipes; returns problems with stored ones, for the user to see. */
  async load(): Promise<string[]> {
    const { recipes, problems } = await this.options.recipes.load();
    this.#recipes = recipes.filter((r) => !this.options.builtins.some((b) => b.id === r.id)).map(recipeToConnector);
    return problems;
  }

  start(): void {
    this.health.start(this.options.healthMinutes());
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
    return [...this.options.builtins, ...this.#recipes];
  }

  get(id: string): Connector | undefined {
    return this.all().find((c) => c.id === id);
  }

  settingsOf(id: string): ConnectorSettings {
    return this.options.connectorSettings()[id] ?? { enabled: false, sites: [] };
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

  /**
   * The connector's server for an agent: one per agent and connector id, kept for the life of the
   * panel so its declared id stays put. Which agents are offered it is decided by `AgentOffers`.
   */
  serverFor(agent: AgentFacts, id: string): ToolServer {
    const connector = this.get(id);
    if (!connector) throw new Error(`There is no connector ${id}.`);
    return this.#servers.get(agent.id, id, () => this.#serverFor(agent, id, connector));
  }

  #serverFor(agent: AgentFacts, id: string, connector: Connector): ToolServer {
    return connectorToolServer({
      id,
      connector: () => this.get(id),
      version: this.options.version,
      agentName: agent.name,
      windowId: this.options.windowId,
      site: () => this.site(this.get(id) ?? connector),
      enabled: () => this.settingsOf(id).enabled,
      ...(agent.exposed ? { exposed: agent.exposed } : {}),
      port: this.options.port,
      gates: this.options.gates,
      grants: this.options.grants,
      onSignedOut: (c, url) => {
        this.health.signedOut(c, url);
        this.options.promptSignIn(c, url);
      },
      onWorked: (c) => this.health.worked(c),
      log: (c, message) => this.options.log?.(c.id, message),
    });
  }

  async #healthCheck(connector: Connector, signal: AbortSignal) {
    const site = this.site(connector);
    if (!site) return { state: 'no-site' as const };
    const refusal = await this.options.gates.originRefusal(site);
    if (refusal) return { state: 'not-allowed' as const, reason: refusal.replace(/^Refused: /, '') };
    const ctx = createConnectorContext({
      connectorId: connector.id,
      connectorName: connector.name,
      site,
      auth: connector.auth,
      port: this.options.port,
      urlRefusal: (url) => this.options.gates.originRefusal(url),
      signal,
      log: (message) => this.options.log?.(connector.id, `health: ${message}`),
    });
    return connector.healthCheck(ctx);
  }

  async #update(id: string, change: (current: ConnectorSettings) => ConnectorSettings): Promise<void> {
    await this.options.updateConnectorSettings((all) => ({
      ...all,
      [id]: change(all[id] ?? { enabled: false, sites: [] }),
    }));
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
    if (this.options.builtins.some((b) => b.id === recipe.id)) {
      return { errors: [`id: "${recipe.id}" is the id of a built-in connector; choose another id.`] };
    }
    const connector = recipeToConnector(recipe);
    const replaced = this.#recipes.some((r) => r.id === recipe.id);
    await this.options.recipes.put(recipe);
    this.#recipes = [...this.#recipes.filter((r) => r.id !== recipe.id), connector];
    if (replaced && this.settingsOf(recipe.id).enabled) this.#serversChanged({ kind: 'tools', connectorId: recipe.id });
    else this.#changed();
    return { connector };
  }

  async removeRecipe(id: string): Promise<void> {
    const wasEnabled = this.settingsOf(id).enabled;
    await this.options.recipes.remove(id);
    this.#recipes = this.#recipes.filter((r) => r.id !== id);
    await this.options.updateConnectorSettings((all) =>
      Object.fromEntries(Object.entries(all).filter(([key]) => key !== id)),
    );
    if (wasEnabled) this.#serversChanged({ kind: 'tools', connectorId: id });
    else this.#changed();
  }
}
