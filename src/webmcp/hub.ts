/**
 * The page-declared tools of every site the user offers them from: each site's tab is read on a
 * short timer and whenever the panel sees a tab load, switch or close, so the agent's list follows
 * what the page registers and unregisters. One server per agent and site, kept for the life of
 * the panel so its declared id stays put. Pure: Chrome, the gates and the timer are passed in.
 */
import type { ToolServer } from '../mcp-server/mcp-core';
import { ServerCache } from '../mcp-server/server-cache';
import type { TabQueue } from '../mcp-server/tab-queue';
import type { TabInfo } from '../mcp-server/browser-port';
import type { SessionGrants } from '../mcp-server/gates/call-gate';
import type { GateEnvironment } from '../mcp-server/gates/types';
import type { PageToolsAccess } from './page-access';
import { pageToolServer, type PageToolCatalog } from './page-server';
import { pageServerName, readPageTools, type PageTool } from './page-tools';
import { HintMemory, withRegisteredHints } from './registered-hints';

export interface PageToolsTimers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export interface PageToolsHubOptions {
  version: string;
  access: PageToolsAccess;
  findTab(origin: string): Promise<TabInfo | undefined>;
  /** Sites the user offers page tools from that are allowed sites now, in the order listed. */
  origins(): readonly string[];
  gates: GateEnvironment;
  grants: SessionGrants;
  timers: PageToolsTimers;
  /** Page calls on one tab, one at a time, shared with the browser tools. */
  tabQueue?: TabQueue;
  pollMs?: number;
  log?(message: string): void;
}

export interface PageAgentFacts {
  id: string;
  name(): string;
  exposed?(serverName: string): boolean;
}

/** `declared`: the set of page servers changed; `tools`: one site's tools did. */
export type PageToolsChange = { kind: 'declared' } | { kind: 'tools'; origin: string };

export const pageServerKey = (origin: string) => `page:${origin}`;

export const PAGE_TOOLS_POLL_MS = 1500;

export class PageToolsHub implements PageToolCatalog {
  readonly #catalog = new Map<string, { tools: PageTool[]; signature: string }>();
  readonly #servers = new ServerCache();
  readonly #listeners = new Set<(change: PageToolsChange) => void>();
  /** Per site, the strictest each tool of its current document was seen at. */
  readonly #hints = new Map<string, HintMemory>();
  #declared = '';
  #timer: unknown;
  #running: Promise<void> | undefined;
  #again = false;

  constructor(private readonly options: PageToolsHubOptions) {
    this.#declared = JSON.stringify(this.origins());
  }

  onChange(listener: (change: PageToolsChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #emit(change: PageToolsChange): void {
    for (const listener of this.#listeners) listener(change);
  }

  /** One origin per server name: two sites that would share a name (http and https of a host) offer the first. */
  origins(): string[] {
    const names = new Set<string>();
    return this.options.origins().filter((origin) => {
      const name = pageServerName(origin);
      if (names.has(name)) return false;
      names.add(name);
      return true;
    });
  }

  names(): string[] {
    return this.origins().map(pageServerName);
  }

  toolsOf(origin: string): readonly PageTool[] {
    return this.origins().includes(origin) ? (this.#catalog.get(origin)?.tools ?? []) : [];
  }

  start(): void {
    this.stop();
    this.#timer = this.options.timers.setInterval(() => this.poke(), this.options.pollMs ?? PAGE_TOOLS_POLL_MS);
    this.poke();
  }

  stop(): void {
    if (this.#timer !== undefined) this.options.timers.clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Reads every offered site's tab again soon; readings never overlap. */
  poke(): void {
    void this.refreshAll();
  }

  async refreshAll(): Promise<void> {
    if (this.#running) {
      this.#again = true;
      return this.#running;
    }
    this.#running = (async () => {
      do {
        this.#again = false;
        await this.#readAll();
      } while (this.#again);
    })().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async refresh(origin: string): Promise<void> {
    await this.#read(origin);
  }

  async #readAll(): Promise<void> {
    const origins = this.origins();
    const declared = JSON.stringify(origins);
    if (declared !== this.#declared) {
      this.#declared = declared;
      this.#emit({ kind: 'declared' });
    }
    for (const origin of [...this.#catalog.keys()]) {
      if (!origins.includes(origin)) {
        this.#catalog.delete(origin);
        this.#hints.delete(origin);
        this.#emit({ kind: 'tools', origin });
      }
    }
    for (const origin of origins) await this.#read(origin);
  }

  async #read(origin: string): Promise<void> {
    let tools: PageTool[] = [];
    const tab = await this.options.findTab(origin).catch(() => undefined);
    if (tab) {
      try {
        const reading = await this.options.access.list(tab.id, origin);
        const memory = this.#hints.get(origin) ?? new HintMemory();
        this.#hints.set(origin, memory);
        memory.documentIs(reading.documentId);
        const declared = withRegisteredHints(reading.tools, reading.registrations, memory);
        const read = readPageTools(declared, pageServerName(origin), origin);
        tools = read.tools;
        for (const problem of read.skipped) this.options.log?.(`${origin}: left out ${problem}`);
      } catch (error) {
        this.options.log?.(`${origin}: ${(error as Error).message}`);
      }
    }
    const signature = JSON.stringify(tools.map((tool) => tool.listing));
    const before = this.#catalog.get(origin);
    this.#catalog.set(origin, { tools, signature });
    if ((before?.signature ?? '[]') !== signature) this.#emit({ kind: 'tools', origin });
  }

  /** The site's page server for an agent: one per agent and origin, kept for the life of the panel. */
  serverFor(agent: PageAgentFacts, origin: string): ToolServer {
    return this.#servers.get(agent.id, origin, () => this.#serverFor(agent, origin));
  }

  #serverFor(agent: PageAgentFacts, origin: string): ToolServer {
    const name = pageServerName(origin);
    return pageToolServer({
      origin,
      version: this.options.version,
      agentName: agent.name,
      enabled: () => this.origins().includes(origin),
      ...(agent.exposed ? { exposed: () => agent.exposed!(name) } : {}),
      catalog: this,
      findTab: (origin) => this.options.findTab(origin),
      access: this.options.access,
      gates: this.options.gates,
      grants: this.options.grants,
      ...(this.options.tabQueue ? { tabQueue: this.options.tabQueue } : {}),
    });
  }
}
