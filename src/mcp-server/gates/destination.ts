/**
 * Tools that take the browser somewhere, or act on a tab named by id, are checked against where
 * they lead before they run (and before the user is asked): `navigate` and `new_tab` by their
 * URL, `switch_tab` and `close_tab` by the URL of the tab they name. Handlers check again with
 * `ctx.checkDestination` (redirects, history), so this is the first of two checks, not the only one.
 */
import type { TabInfo } from '../browser-port';

export interface TabLookup {
  getTab(tabId: number): Promise<TabInfo | undefined>;
}

type DestinationRule = (args: Record<string, unknown>, tabs: TabLookup) => Promise<string | undefined>;

const byUrl: DestinationRule = async (args) => (typeof args.url === 'string' ? args.url : undefined);

const byTabId: DestinationRule = async (args, tabs) => {
  if (typeof args.tabId !== 'number') return undefined;
  const tab = await tabs.getTab(args.tabId);
  // A tab that does not exist is the handler's error to report; one without a URL is not a web page.
  return tab ? (tab.url ?? '') : undefined;
};

export const DESTINATION_RULES: Readonly<Record<string, DestinationRule>> = {
  navigate: byUrl,
  new_tab: byUrl,
  switch_tab: byTabId,
  close_tab: byTabId,
};

/** The URL this call leads to (or names), or undefined when it leads nowhere in particular. */
export function destinationOf(
  tool: string,
  args: Record<string, unknown>,
  tabs: TabLookup,
): Promise<string | undefined> {
  const rule = DESTINATION_RULES[tool];
  return rule ? rule(args, tabs) : Promise.resolve(undefined);
}
