/**
 * What the framework knows about a tool, declared once beside it: the gates read these facts
 * straight from the spec, the registry derives `tools/list` and the MCP annotations from them, and
 * nothing else keeps a table keyed by tool name. Browser tools and connector tools alike are specs.
 */
import type { z } from 'zod';
import type { TabInfo } from './browser-port';

/** `read` never changes a page's data (scrolling and hovering only reveal); `write` needs act mode and confirmation. */
export type ToolEffect = 'read' | 'write';

/**
 * `page`: works in the call's tab, whose site the gates check first; `tabs`: works on the tab set
 * (opening, naming, moving between tabs), checked by its destination; `site`: works on a
 * connector's site in a background tab of its own, whose site the gates check first.
 */
export type ToolScope = 'page' | 'tabs' | 'site';

export type ElementTargetArg = { ref: string } | { selector: string };

export interface TabLookup {
  getTab(tabId: number): Promise<TabInfo | undefined>;
}

export interface ToolSpec<Input extends z.ZodObject = z.ZodObject> {
  /** Bare name within its server, e.g. `snapshot`. */
  readonly name: string;
  /** A short human title (MCP `annotations.title` and `title`). */
  readonly title: string;
  readonly description: string;
  readonly input: Input;
  /** The input's JSON Schema as listed, for a tool declared with one (a page's) rather than derived from `input`. */
  readonly inputSchema?: Record<string, unknown>;
  /** The shape of the result's `structuredContent`, when the tool gives one (MCP `outputSchema`). */
  readonly output?: z.ZodObject;
  readonly effect: ToolEffect;
  readonly scope: ToolScope;
  /**
   * Where the call leads (navigate, new_tab) or the URL of the tab it names (switch_tab,
   * close_tab). The gates check it before the call runs and before the user is asked; handlers
   * check again where they land (redirects, history), so this is the first check, not the only one.
   */
  destination?(args: z.output<Input>, tabs: TabLookup): Promise<string | undefined>;
  /** Captures the screen: needs screenshots turned on and Chrome's `<all_urls>`. */
  readonly capturesScreen?: boolean;
  /**
   * The element targets this call types values into. The page is asked which are password fields,
   * and the values aimed at those are masked in the confirmation, the audit log and the result.
   */
  typedInto?(args: z.output<Input>): ElementTargetArg[];
  /**
   * Argument keys (at any depth) that carry file contents: the confirmation card and the audit log
   * show their size in their place, never the contents.
   */
  readonly contentArgs?: readonly string[];
  /**
   * Its arguments may name elements by role and name (`target`, `toTarget`, and in a list's items):
   * each is looked up in the page as the ref it names before the user is asked, and the tool gets
   * that ref beside the target (target-args.ts).
   */
  readonly resolvesTargets?: boolean;
  /** The tab the arguments name by id (switch_tab, close_tab): it must be the caller's own. */
  namedTab?(args: z.output<Input>): number | undefined;
  /** Acts in the caller's current tab though it needs no web page there (navigate): the caller must have one. */
  readonly usesCurrentTab?: boolean;
  /** A write the user confirms on every call: no "for this site" grant is offered or honoured. */
  readonly alwaysConfirm?: boolean;
  /**
   * The user's own open dialog in the call's tab blocks the call: its page runs nothing until the
   * dialog is answered, so the call ends at once instead of waiting on it. Page tools by default.
   */
  readonly blockedByUserDialog?: boolean;
}

export function blockedByUserDialog(tool: Pick<ToolSpec, 'scope' | 'blockedByUserDialog'>): boolean {
  return tool.blockedByUserDialog ?? tool.scope === 'page';
}

/** A destination given as the `url` argument. */
export async function urlArgument(args: { url?: unknown }): Promise<string | undefined> {
  return typeof args.url === 'string' ? args.url : undefined;
}

/** The URL of the tab named by the `tabId` argument ('' for a tab that is not a web page). */
export async function namedTab(args: { tabId?: unknown }, tabs: TabLookup): Promise<string | undefined> {
  if (typeof args.tabId !== 'number') return undefined;
  const tab = await tabs.getTab(args.tabId);
  // A tab that does not exist is the handler's error to report; one without a URL is not a web page.
  return tab ? (tab.url ?? '') : undefined;
}

/** The target of a `ref`/`selector` pair of arguments, if one was given. */
export function targetOf(args: { ref?: string | undefined; selector?: string | undefined }): ElementTargetArg[] {
  if (args.ref !== undefined) return [{ ref: args.ref }];
  if (args.selector !== undefined) return [{ selector: args.selector }];
  return [];
}

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
}

export function annotationsOf(spec: Pick<ToolSpec, 'title' | 'effect'>): ToolAnnotations {
  return { title: spec.title, readOnlyHint: spec.effect === 'read', destructiveHint: spec.effect === 'write' };
}
