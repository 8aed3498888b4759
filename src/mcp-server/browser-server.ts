/**
 * The browser-tools MCP server for one agent: the registry of browser tools behind the gates.
 * Page tools act on the active tab of the panel's own window.
 */
import { BROWSER_INSTRUCTIONS } from '../contract/browser-tools';
import { unknownToolText } from '../contract/mcp';
import { PageCommandError, type BrowserPort, type TabInfo } from './browser-port';
import type { CallActivity } from './call-activity';
import { heldMidCallText, heldText, type DialogHeld, type DialogHolds } from './dialogs';
import { dialogAnswerOf, type DialogPort } from './dialogs';
import { DownloadWatch, reportStartedDownloads, type DownloadPort } from './downloads';
import { auditUnknownTool, runGated, type SessionGrants } from './gates/call-gate';
import { inspectTargets } from './gates/inspect-targets';
import type { GateEnvironment } from './gates/types';
import type { CallMeta, ToolServer } from './mcp-core';
import { PageGuard } from './page-guard';
import { raceAbort } from '../shared/race-abort';
import { ToolRegistry } from './registry';
import { ResponseBuilder, errorResult, type CallToolResult } from './response';
import type { SnapshotService } from './snapshot-service';
import type { TabQueue } from './tab-queue';
import type { BrowserTool, ToolContext } from './tool';

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
}

export class BrowserToolServer implements ToolServer {
  readonly #registry: ToolRegistry<BrowserTool>;
  readonly instructions = BROWSER_INSTRUCTIONS;

  constructor(private readonly options: BrowserServerOptions) {
    this.#registry = new ToolRegistry(options.name, options.tools);
  }

  get name(): string {
    return this.options.name;
  }

  get version(): string {
    return this.options.version;
  }

  list() {
    return this.#registry.list();
  }

  async call(name: string, rawArgs: Record<string, unknown> | undefined, meta: CallMeta): Promise<CallToolResult> {
    const tool = this.#registry.lookup(name);
    if (!tool) {
      const text = unknownToolText(
        name,
        this.#registry.list().map((listing) => listing.name),
      );
      auditUnknownTool(this.options.gates, this.options.agentName(), this.options.name, name, rawArgs, text);
      return errorResult(text);
    }
    return runGated(
      {
        agentName: this.options.agentName(),
        server: this.options.name,
        tool: tool as never,
        rawArgs,
        signal: meta.signal,
        ...(this.options.exposed ? { exposed: this.options.exposed } : {}),
        resolveTab: () => this.options.browser.activeTab(this.options.windowId),
        tabs: this.options.browser,
        inspectTargets: (args, typed, tab, describe) =>
          this.#unlessHeld(tab.id, meta.signal, (signal) =>
            inspectTargets(this.#guard(), tab.id, args, typed, describe, signal),
          ),
        ...(this.options.holds && tool.scope === 'page' ? { unavailable: (tab) => this.#heldReason(tab.id) } : {}),
        execute: (args, tab) => this.#execute(tool, args, tab, meta.signal),
      },
      this.options.gates,
      this.options.grants,
    );
  }

  /** Runs `work`, ending it with `DialogHeld` once the user's dialog holds the tab. */
  async #unlessHeld<T>(tabId: number, signal: AbortSignal, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const held = this.options.holds?.watch(tabId);
    if (!held) return work(signal);
    try {
      return await raceAbort(work(AbortSignal.any([signal, held.signal])), held.signal);
    } finally {
      held.dispose();
    }
  }

  async #heldReason(tabId: number): Promise<string | undefined> {
    const kind = await this.options.holds?.held(tabId);
    return kind ? heldText(kind) : undefined;
  }

  /** A page port for one call, bound to the gates' decision (page-guard.ts), its commands sent once `ready`. */
  #guard(ready?: Promise<void>): PageGuard {
    return new PageGuard(this.options.browser.page, (url) => this.options.gates.originRefusal(url), ready);
  }

  async #execute(
    tool: BrowserTool,
    args: Record<string, unknown>,
    tab: TabInfo | undefined,
    callSignal: AbortSignal,
  ): Promise<CallToolResult> {
    // A dialog of the user's that opens mid-call ends the call with its reason; the work stops too.
    const held = tab && tool.scope === 'page' ? this.options.holds?.watch(tab.id) : undefined;
    const signal = held ? AbortSignal.any([callSignal, held.signal]) : callSignal;
    const response = new ResponseBuilder();
    const checkDestination = (url: string | undefined) => this.options.gates.originRefusal(url);
    // Page commands wait until what the call shows (the outline) is in place; the rest need not.
    const contextFor = (shown?: Promise<void>): ToolContext => {
      const page = this.#guard(shown);
      return {
        signal,
        windowId: this.options.windowId,
        browser: this.options.browser,
        page,
        snapshots: this.options.snapshots,
        readPage: (at, options = {}) => this.options.snapshots.capture(page, at, { signal, ...options }),
        checkDestination,
        isTabVisible: async (url) => (await checkDestination(url)) === undefined,
        ...(this.options.downloads ? { downloads: this.options.downloads } : {}),
        ...(this.options.dialogs ? { dialogs: this.options.dialogs } : {}),
        ...(this.options.holds ? { holds: this.options.holds } : {}),
        // Only a write, confirmed by the user, may answer a dialog: a read's dialogs are always dismissed.
        ...(tool.effect === 'write' && dialogAnswerOf(args.dialog) ? { dialog: dialogAnswerOf(args.dialog)! } : {}),
      };
    };
    const write = tool.effect === 'write';
    // Watching from before the handler runs: a click's download can begin before its result is in.
    const watch = write && this.options.downloads?.reporting() ? new DownloadWatch(this.options.downloads) : undefined;
    try {
      const work = async (shown?: Promise<void>) => {
        const ctx = contextFor(shown);
        if (tool.scope === 'page') {
          // The gates resolved and checked the tab before the call got here.
          if (!tab) throw new PageCommandError('There is no tab to act on.', 'no-tab');
          await tool.handle(args as never, { ...ctx, tab }, response);
        } else {
          await tool.handle(args as never, ctx, response);
        }
      };
      const run = async () => {
        if (this.options.activity) {
          const call = { tool: tool.name, write, target: tool.scope, tab, windowId: this.options.windowId, signal };
          await this.options.activity.around({ ...call, checkDestination }, work);
        } else {
          await work();
        }
      };
      const queued = () =>
        tab && tool.scope === 'page' && this.options.tabQueue ? this.options.tabQueue.run(tab.id, signal, run) : run();
      // Raced, because a command already sent to a held page cannot be called back.
      await raceAbort(queued(), held?.signal);
      if (watch && !response.isError) await reportStartedDownloads(watch, checkDestination, response, signal);
    } catch (error) {
      if (callSignal.aborted) throw error;
      if (held?.signal.aborted) {
        return new ResponseBuilder().error(heldMidCallText((held.signal.reason as DialogHeld).kind)).build();
      }
      if (error instanceof PageCommandError) return new ResponseBuilder().error(error.message).build();
      throw error;
    } finally {
      watch?.dispose();
      held?.dispose();
    }
    return response.build();
  }
}
