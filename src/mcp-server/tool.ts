/**
 * A browser tool is its spec (tool-spec.ts) plus a handler that writes to a response builder.
 * Page tools get a context whose tab is the one the gates checked; tab tools work on the tab set.
 */
import type { z } from 'zod';
import type { PagePort, TabInfo, ToolBrowser } from './browser-port';
import type { CallerTabs } from './caller-tabs';
import type { Leaving } from './dialogs';
import type { DownloadPort } from './downloads';
import type { ResponseBuilder } from './response';
import type { Snapshot, SnapshotService } from './snapshot-service';
import type { ToolSpec } from './tool-spec';

export interface ToolContext {
  readonly signal: AbortSignal;
  readonly windowId: number;
  /** Tabs and windows; the page itself only through `page`. */
  readonly browser: ToolBrowser;
  /** Page commands, reaching only documents the gates allow (see page-guard.ts). */
  readonly page: PagePort;
  readonly snapshots: SnapshotService;
  /** Takes a snapshot of a tab through `page` (so through the gates); it becomes the tab's latest unless limited by `selector`. */
  readPage(tab: TabInfo, options?: { selector?: string }): Promise<Snapshot>;
  /** Asks the origin gate about a destination; returns the refusal text, or undefined when allowed. */
  checkDestination(url: string): Promise<string | undefined>;
  /** Whether the agent may see this tab's title and URL (the tab list hides the rest). */
  isTabVisible(url: string | undefined): Promise<boolean>;
  /** Chrome's downloads, when the panel can report them (absent in builds and tests without it). */
  readonly downloads?: DownloadPort;
  /**
   * Before the page in `tabId` is left (navigated, reloaded, closed): refused when the user's own
   * dialog holds it, or when the page asks first and the call did not say to accept; otherwise the
   * leave goes ahead, and `done` puts the page's own prompt back for the user.
   */
  leave(tabId: number, verb: string): Promise<Leaving>;
  /** The caller's own tabs: which it works in, which it may name, the ones it opens. */
  readonly callerTabs: CallerTabs;
  /** The action is done in the page: what shows the agent acting may come down while the answer is read. */
  acted?(): void;
}

export interface PageToolContext extends ToolContext {
  /** The tab the call acts on (the caller's current tab, or the tab in front for one that follows it), checked by the gates. */
  readonly tab: TabInfo;
}

export interface PageTool<Input extends z.ZodObject = z.ZodObject> extends ToolSpec<Input> {
  readonly scope: 'page';
  handle(args: z.output<Input>, ctx: PageToolContext, response: ResponseBuilder): Promise<void>;
}

export interface TabsTool<Input extends z.ZodObject = z.ZodObject> extends ToolSpec<Input> {
  readonly scope: 'tabs';
  handle(args: z.output<Input>, ctx: ToolContext, response: ResponseBuilder): Promise<void>;
}

export type BrowserTool<Input extends z.ZodObject = z.ZodObject> = PageTool<Input> | TabsTool<Input>;

export function defineTool<Input extends z.ZodObject>(tool: PageTool<Input>): PageTool<Input>;
export function defineTool<Input extends z.ZodObject>(tool: TabsTool<Input>): TabsTool<Input>;
export function defineTool<Input extends z.ZodObject>(tool: BrowserTool<Input>): BrowserTool<Input> {
  return tool;
}
