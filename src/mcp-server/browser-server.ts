/**
 * The browser tools, as a kind of the gated server: the registry of browser tools, the tab a call
 * acts in (the active tab of the panel's window), how elements named by role and name are looked
 * up, and a tool's handler run with a context made from the call session.
 */
import { BROWSER_INSTRUCTIONS } from '../contract/browser-tools';
import type { BrowserPort, TabInfo } from './browser-port';
import type { CallActivity } from './call-activity';
import type { CallSession } from './call-session';
import type { DialogHolds, DialogPort } from './dialogs';
import { DownloadWatch, reportStartedDownloads, type DownloadPort } from './downloads';
import type { SessionGrants } from './gates/call-gate';
import type { TargetLookup } from './gates/resolve-targets';
import type { TargetQuery } from '../page/target-match';
import type { GateEnvironment } from './gates/types';
import { GatedServer, type ToolKind } from './gated-server';
import { ToolRegistry } from './registry';
import type { SnapshotService } from './snapshot-service';
import type { TabQueue } from './tab-queue';
import type { BrowserTool, ToolContext } from './tool';
import type { Caller } from './caller';
import { callerTabs, notSharedText, type CallerTabs } from './caller-tabs';
import type { CallMeta } from './mcp-core';
import type { TabOwnership } from './tab-ownership';
import { FAILURE_TEXT } from './tool-failure';
import { PageCommandError } from './browser-port';

export interface BrowserServerOptions {
  name: string;
  version: string;
  agentName(): string;
  windowId: number;
  tools: readonly BrowserTool[];
  browser: BrowserPort;
  snapshots: SnapshotService;
  gates: GateEnvironment;
  grants: SessionGrants;
  /** Whether the agent is still offered this server; read on every call. */
  exposed?(): boolean;
  /** Whether the agent may be offered this tool (an organisation's policy); read on every call. */
  toolOffered?(name: string): boolean;
  /** Chrome's downloads: listed by the `downloads` tool and reported after write calls, while the user has it on. */
  downloads?: DownloadPort;
  /** The tabs' dialog relays: actions answer or dismiss the dialogs they open, leaves ask first. */
  dialogs?: DialogPort;
  /** What the user sees while a call works (tab group, outline). */
  activity?: CallActivity;
  /** Tabs held by the user's own dialogs: page calls there end at once instead of waiting on it. */
  holds?: DialogHolds;
  /** Page calls on one tab, one at a time, shared by every agent of the panel. */
  tabQueue?: TabQueue;
  /** Who owns which tab; without it every caller works in the tab in front. */
  ownership?: TabOwnership;
  /** The agent follows the tab the person has in front ("Follow my current tab"); read on every call. */
  follows?(): boolean;
  /** Who a call comes from: the agent, or an MCP client it carried. */
  callerOf?(meta: CallMeta): Caller;
}

/** Tabs the call moves have other frames afterwards: the call's guard looks them up again. */
function movingTabsForgetsFrames(browser: BrowserPort, call: CallSession): BrowserPort {
  const moves = new Set<PropertyKey>([
    'navigate',
    'goHistory',
    'reload',
    'createTab',
    'openInUnfocusedWindow',
    'activateTab',
    'closeTab',
  ]);
  return new Proxy(browser, {
    get(target, key) {
      const value = Reflect.get(target, key, target) as unknown;
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => unknown;
      if (!moves.has(key)) return method.bind(target);
      return async (...args: unknown[]) => {
        try {
          return await method.apply(target, args);
        } finally {
          call.guard.forgetFrames();
        }
      };
    },
  });
}

class BrowserKind implements ToolKind<BrowserTool> {
  readonly instructions = BROWSER_INSTRUCTIONS;
  readonly #registry: ToolRegistry<BrowserTool>;

  constructor(private readonly options: BrowserServerOptions) {
    this.#registry = new ToolRegistry(options.name, options.tools);
  }

  get name(): string {
    return this.options.name;
  }

  get version(): string {
    return this.options.version;
  }

  offer(): ToolRegistry<BrowserTool> {
    return this.#registry;
  }

  /** The caller's tabs for this call: an agent may follow the person's tab; its MCP clients never do. */
  #tabs(call: CallSession): CallerTabs {
    const { options } = this;
    const isAgent = !call.facts.caller.id.includes('/mcp:');
    return callerTabs({
      caller: call.facts.caller,
      ownership: options.ownership,
      follows: isAgent && (options.follows?.() ?? false),
      browser: options.browser,
      windowId: options.windowId,
      actMode: () => options.gates.actMode(),
    });
  }

  followsFront(call: CallSession): boolean {
    return this.#tabs(call).follows;
  }

  findTab(_tool: BrowserTool, call: CallSession): Promise<TabInfo | { refusal: string }> {
    return this.#tabs(call).current();
  }

  async refuseNamedTab(tool: BrowserTool, args: Record<string, unknown>, call: CallSession) {
    const tabs = this.#tabs(call);
    if (tool.usesCurrentTab) {
      const current = await tabs.current();
      return 'refusal' in current ? current.refusal : undefined;
    }
    const tabId = tool.namedTab?.(args);
    if (tabId === undefined || tabs.owns(tabId)) return undefined;
    return notSharedText(tabId, call.facts.caller.label, this.options.gates.actMode());
  }

  /** A walk of the tab like a snapshot's, through the call's page port, that does not become its latest. */
  async readTargets(call: CallSession, queries: TargetQuery[], signal: AbortSignal): Promise<TargetLookup> {
    if (!call.tab) throw new PageCommandError(FAILURE_TEXT.noTab, 'no-tab');
    return this.options.snapshots.capture(call.page, call.tab, { targets: queries, signal });
  }

  #context(call: CallSession): ToolContext {
    const { options } = this;
    const signal = call.workSignal ?? call.signal;
    const page = call.page;
    const checkDestination = (url: string | undefined) => call.decide(url);
    return {
      signal,
      windowId: options.windowId,
      browser: movingTabsForgetsFrames(options.browser, call),
      page,
      snapshots: options.snapshots,
      readPage: (at, readOptions = {}) => options.snapshots.capture(page, at, { signal, ...readOptions }),
      checkDestination,
      isTabVisible: async (url) => (await checkDestination(url)) === undefined,
      ...(options.downloads ? { downloads: options.downloads } : {}),
      leave: async (tabId, verb) => call.dialogs?.leave(tabId, verb) ?? { signal, done: async () => undefined },
      callerTabs: this.#tabs(call),
      acted: () => call.acted?.(),
    };
  }

  async run(call: CallSession, tool: BrowserTool, args: Record<string, unknown>): Promise<void> {
    const ctx = this.#context(call);
    const write = tool.effect === 'write';
    // Watching from before the handler runs: a click's download can begin before its result is in.
    const downloads = this.options.downloads;
    const watch = write && downloads?.reporting() ? new DownloadWatch(downloads) : undefined;
    try {
      if (tool.scope === 'page') {
        // The gates resolved and checked the tab before the call got here.
        if (!call.tab) throw new PageCommandError(FAILURE_TEXT.noTab, 'no-tab');
        await tool.handle(args, { ...ctx, tab: call.tab }, call.response);
      } else {
        await tool.handle(args, ctx, call.response);
      }
      if (watch && !call.response.isError)
        await reportStartedDownloads(watch, ctx.checkDestination, call.response, ctx.signal);
    } finally {
      watch?.dispose();
    }
  }
}

/** The browser-tools MCP server for one agent. */
export function browserToolServer(options: BrowserServerOptions): GatedServer<BrowserTool> {
  return new GatedServer(new BrowserKind(options), {
    agentName: options.agentName,
    gates: options.gates,
    grants: options.grants,
    ...(options.exposed ? { exposed: options.exposed } : {}),
    ...(options.toolOffered ? { toolOffered: options.toolOffered } : {}),
    ...(options.callerOf ? { callerOf: options.callerOf } : {}),
    page: options.browser.page,
    tabs: options.browser,
    windowId: options.windowId,
    ...(options.holds ? { holds: options.holds } : {}),
    ...(options.dialogs ? { dialogs: options.dialogs } : {}),
    ...(options.tabQueue ? { tabQueue: options.tabQueue } : {}),
    ...(options.activity ? { activity: options.activity } : {}),
  });
}
