/**
 * The tools an MCP client (or a fronted agent) sees through the broker: the attached panel's
 * declared servers, merged into one list, each call routed to the server that listed it. While no
 * panel is attached the built-in browser tools are still listed — their names and schemas come
 * from the manifest written from the panel's registry — and answer that the browser is not
 * connected. A panel that gives the agent no tools (browser access off) lists none, and its session
 * goes on listing none while that panel is away.
 *
 * On an agent's own endpoint (`/mcp/<session>`) the broker is already the agent's browser server,
 * and every agent prefixes a tool with its server's name (`mcp__tabwright__snapshot`): there the
 * browser tools drop their own prefix (`snapshot`). Connector and page tools keep theirs. Each bare
 * name maps back to the full tool before the call reaches the panel, so its gates, grants,
 * remembered answers and audit see the same tool as anywhere else.
 */
import { DEFAULT_BROWSER_SERVER } from '../src/contract/browser-tools';
import { browserToolsUnder } from '../src/contract/tool-manifest';
import { errorResult, unknownToolText, type CallToolResult, type McpTool, type CallerMeta } from '../src/contract/mcp';
import { TunnelError, type PanelServer } from './panel-tools';
import { declaresNoTools, type BrokerSession } from './sessions';

const builtIns = new Map<string, McpTool[]>();

/** The browser tools as the panel lists them under `serverName`, from the manifest. */
export function builtInTools(serverName: string): McpTool[] {
  let listing = builtIns.get(serverName);
  if (!listing) {
    listing = browserToolsUnder(serverName);
    builtIns.set(serverName, listing);
  }
  return listing;
}

export const NOT_CONNECTED =
  'The browser is not connected: no Tabwright side panel is attached to this broker right now. Ask the user to ' +
  'open the Tabwright side panel and connect it to this broker, then call the tool again.';

export const NO_BROWSER_ACCESS =
  'The Tabwright panel gives this agent no tools (browser access is off for it in the panel settings). Ask the ' +
  'user to turn browser access on for this agent.';

/** What a failed tunnel call means for the model, and what it can do next. */
export function describeFailure(error: TunnelError): string {
  switch (error.failure) {
    case 'disconnected':
      return (
        'The browser disconnected before the call finished (the Tabwright panel closed its connection). Whether ' +
        'the action took effect is unknown: once the panel is back, take a snapshot to check before retrying.'
      );
    case 'timeout':
      return `${error.message} Check the page with a snapshot, then retry if needed.`;
    case 'cancelled':
      return 'The call was cancelled before the browser answered.';
    case 'too_large':
      return error.message;
    case 'refused':
      return `The browser refused the call: ${error.message}`;
  }
}

/** A tool as listed here, the server that serves it and its name there. */
interface Entry {
  tool: McpTool;
  server: PanelServer;
  fullName: string;
}

export interface CatalogOptions {
  /** List the browser server's tools without their `<name>.` prefix (an agent's `/mcp/<session>`). */
  bareBrowserNames?: boolean;
}

/** A browser tool's name as listed when bare names are on: `tabwright.snapshot` is `snapshot`. */
function bare(fullName: string, browserName: string): string | undefined {
  return fullName.startsWith(`${browserName}.`) ? fullName.slice(browserName.length + 1) : undefined;
}

export class ToolCatalog {
  /** Last browser-tools name seen, so the built-in names stay stable while detached. */
  #browserName = DEFAULT_BROWSER_SERVER;
  readonly #bareNames: boolean;

  constructor(
    /** The session whose panel this catalog serves (it may change, e.g. "the panel attached last"). */
    private readonly target: () => BrokerSession | undefined,
    private readonly log: (line: string) => void = () => undefined,
    options: CatalogOptions = {},
  ) {
    this.#bareNames = options.bareBrowserNames ?? false;
  }

  /** The built-in browser tools as this catalog lists them while no panel is attached. */
  #builtIns(): McpTool[] {
    const tools = builtInTools(this.#browserName);
    if (!this.#bareNames) return tools;
    return tools.map((tool) => ({ ...tool, name: bare(tool.name, this.#browserName)! }));
  }

  #attached(): BrokerSession | undefined {
    const session = this.target();
    if (session?.browserName) this.#browserName = session.browserName;
    return session?.client ? session : undefined;
  }

  /** The session was given no tools by its panel, whether or not that panel is attached now. */
  #declaresNone(): boolean {
    const session = this.target();
    return session !== undefined && declaresNoTools(session);
  }

  async list(signal?: AbortSignal): Promise<McpTool[]> {
    const session = this.#attached();
    if (!session) return this.#declaresNone() ? [] : this.#builtIns();
    return (await this.#entries(session, signal)).map((entry) => entry.tool);
  }

  /** Every server's tools, merged, each under the name this catalog lists it by. */
  async #entries(session: BrokerSession, signal?: AbortSignal): Promise<Entry[]> {
    const listed = await Promise.allSettled(session.servers.map((server) => server.tools(signal)));
    const entries: Entry[] = [];
    let browser: PanelServer | undefined;
    listed.forEach((outcome, index) => {
      const server = session.servers[index]!;
      let tools: McpTool[];
      if (outcome.status === 'fulfilled') {
        tools = outcome.value;
      } else if (server.name === this.#browserName) {
        // An agent that lists its tools once (at its start) must not come away without the browser
        // because one listing failed: the browser's tools are known from the manifest.
        this.log(
          `could not list the tools of ${server.name} (listing its browser tools from the manifest): ${(outcome.reason as Error).message}`,
        );
        tools = builtInTools(server.name);
      } else {
        this.log(`could not list the tools of ${server.name}: ${(outcome.reason as Error).message}`);
        return;
      }
      if (tools.some((tool) => tool.name === `${server.name}.snapshot`)) {
        session.browserName = this.#browserName = server.name;
        browser = server;
      }
      entries.push(...tools.map((tool) => ({ tool, server, fullName: tool.name })));
    });
    return this.#bareNames && browser ? this.#unprefixed(entries, browser) : entries;
  }

  /**
   * The browser server's tools under their bare names. A bare name another tool already has is
   * refused: that browser tool keeps its full name, so no name ever means two tools.
   */
  #unprefixed(entries: Entry[], browser: PanelServer): Entry[] {
    const others = new Set(entries.filter((entry) => entry.server !== browser).map((entry) => entry.fullName));
    return entries.map((entry) => {
      const name = entry.server === browser ? bare(entry.fullName, browser.name) : undefined;
      if (name === undefined) return entry;
      if (others.has(name)) {
        this.log(`${entry.fullName} keeps its full name: another server lists a tool named ${name}`);
        return entry;
      }
      return { ...entry, tool: { ...entry.tool, name } };
    });
  }

  async call(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
    caller?: CallerMeta,
  ): Promise<CallToolResult> {
    const session = this.#attached();
    if (!session && this.#declaresNone()) return errorResult(NO_BROWSER_ACCESS);
    if (!session) {
      // Namespaced names (browser tools under any server name, connector tools) all need the panel.
      if (name.includes('.')) return errorResult(NOT_CONNECTED);
      const builtIns = this.#builtIns();
      if (builtIns.some((tool) => tool.name === name)) return errorResult(NOT_CONNECTED);
      return this.#unknown(name, builtIns);
    }
    if (session.servers.length === 0) return errorResult(NO_BROWSER_ACCESS);
    const route = await this.#route(session, name, signal);
    if (!route) return this.#unknown(name, await this.list(signal).catch(() => []));
    try {
      return await route.server.call(route.fullName, args, signal, caller);
    } catch (error) {
      if (error instanceof TunnelError) return errorResult(describeFailure(error));
      throw error;
    }
  }

  /**
   * The server that listed the tool under this name, and the tool's full name there; by name
   * prefix when no server could list its tools.
   */
  async #route(
    session: BrokerSession,
    name: string,
    signal?: AbortSignal,
  ): Promise<Pick<Entry, 'server' | 'fullName'> | undefined> {
    const entry = (await this.#entries(session, signal)).find((candidate) => candidate.tool.name === name);
    if (entry) return entry;
    const unlisted = await Promise.all(
      session.servers.map(async (server) => ((await server.tools(signal).catch(() => undefined)) ? undefined : server)),
    );
    for (const server of unlisted) {
      if (!server) continue;
      if (name.startsWith(`${server.name}.`)) return { server, fullName: name };
      if (this.#bareNames && server.name === session.browserName && !name.includes('.')) {
        return { server, fullName: `${server.name}.${name}` };
      }
    }
    return undefined;
  }

  #unknown(name: string, tools: McpTool[]): CallToolResult {
    const known = tools.map((tool) => tool.name);
    return errorResult(unknownToolText(name, known));
  }
}
