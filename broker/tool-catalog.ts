/**
 * The tools an MCP client (or a fronted agent) sees through the broker: the attached panel's
 * declared servers, merged into one list, each call routed to the server that listed it. While no
 * panel is attached the built-in browser tools are still listed — their names and schemas come
 * from the manifest written from the panel's registry — and answer that the browser is not
 * connected. A panel that gives the agent no tools (browser access off) lists none, and its session
 * goes on listing none while that panel is away.
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

export class ToolCatalog {
  /** Last browser-tools name seen, so the built-in names stay stable while detached. */
  #browserName = DEFAULT_BROWSER_SERVER;

  constructor(
    /** The session whose panel this catalog serves (it may change, e.g. "the panel attached last"). */
    private readonly target: () => BrokerSession | undefined,
    private readonly log: (line: string) => void = () => undefined,
  ) {}

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
    if (!session) return this.#declaresNone() ? [] : builtInTools(this.#browserName);
    const listed = await Promise.allSettled(session.servers.map((server) => server.tools(signal)));
    const tools: McpTool[] = [];
    listed.forEach((outcome, index) => {
      const server = session.servers[index]!;
      if (outcome.status === 'rejected') {
        this.log(`could not list the tools of ${server.name}: ${(outcome.reason as Error).message}`);
        return;
      }
      if (outcome.value.some((tool) => tool.name === `${server.name}.snapshot`)) {
        session.browserName = this.#browserName = server.name;
      }
      tools.push(...outcome.value);
    });
    return tools;
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
      return this.#unknown(name, builtInTools(this.#browserName));
    }
    if (session.servers.length === 0) return errorResult(NO_BROWSER_ACCESS);
    const server = await this.#route(session, name, signal);
    if (!server) return this.#unknown(name, await this.list(signal).catch(() => []));
    try {
      return await server.call(name, args, signal, caller);
    } catch (error) {
      if (error instanceof TunnelError) return errorResult(describeFailure(error));
      throw error;
    }
  }

  /** The server that listed the tool; by name prefix when a listing is unavailable. */
  async #route(session: BrokerSession, name: string, signal?: AbortSignal): Promise<PanelServer | undefined> {
    for (const server of session.servers) {
      const tools = await server.tools(signal).catch(() => undefined);
      if (tools ? tools.some((tool) => tool.name === name) : name.startsWith(`${server.name}.`)) return server;
    }
    return undefined;
  }

  #unknown(name: string, tools: McpTool[]): CallToolResult {
    const known = tools.map((tool) => tool.name);
    return errorResult(unknownToolText(name, known));
  }
}
