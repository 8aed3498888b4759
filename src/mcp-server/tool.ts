/**
 * A browser tool is one declarative object: its name, what it is for, its zod input, whether it
 * can change the page's data, and a handler that writes to a response builder.
 */
import type { z } from 'zod';
import type { BrowserPort, TabInfo } from './browser-port';
import type { DownloadPort } from './downloads';
import type { ResponseBuilder } from './response';
import type { SnapshotService } from './snapshot-service';

/** `read` tools never change a page's data (scrolling and hovering only reveal); `write` tools may. */
export type ToolKind = 'read' | 'write';

/** `page`: acts in the target tab and needs it to be scriptable; `tabs`: works on the tab set. */
export type ToolTarget = 'page' | 'tabs';

export interface ToolContext {
  readonly signal: AbortSignal;
  /** The tab the call acts on (the active tab of the panel's window), checked by the gates. */
  readonly tab: TabInfo | undefined;
  readonly windowId: number;
  readonly browser: BrowserPort;
  readonly snapshots: SnapshotService;
  /** Asks the origin gate about a destination; returns the refusal text, or undefined when allowed. */
  checkDestination(url: string): Promise<string | undefined>;
  /** Whether the agent may see this tab's title and URL (the tab list hides the rest). */
  isTabVisible(url: string | undefined): Promise<boolean>;
  /** Chrome's downloads, when the panel can report them (absent in builds and tests without it). */
  readonly downloads?: DownloadPort;
}

export interface BrowserTool<Input extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  readonly description: string;
  readonly input: Input;
  readonly kind: ToolKind;
  readonly target: ToolTarget;
  handle(args: z.output<Input>, ctx: ToolContext, response: ResponseBuilder): Promise<void>;
}

export function defineTool<Input extends z.ZodObject>(tool: BrowserTool<Input>): BrowserTool<Input> {
  return tool;
}
