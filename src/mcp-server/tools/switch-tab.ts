import { z } from 'zod';
import { reportNewPage } from '../action-flow';
import type { TabInfo } from '../browser-port';
import { namedTab } from '../tool-spec';
import { defineTool, type ToolContext } from '../tool';

const POLL_MS = 100;
const LOAD_WAIT_MS = 15_000;

/** A tab brought back from the background may reload (discarded tabs do): wait for it, bounded. */
async function whenLoaded(ctx: ToolContext, tab: TabInfo): Promise<TabInfo> {
  const deadline = Date.now() + LOAD_WAIT_MS;
  let current = tab;
  while (current.loading && Date.now() < deadline && !ctx.signal.aborted) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    current = (await ctx.browser.getTab(tab.id)) ?? current;
  }
  return current;
}

export const switchTab = defineTool({
  name: 'switch_tab',
  title: 'Switch tab',
  description:
    'Bring a tab of this window to the front, by its id from the tabs tool; the other tools then act on it. Only ' +
    'tabs on allowed sites. Returns the snapshot of that tab.',
  effect: 'write',
  scope: 'tabs',
  destination: namedTab,
  input: z.object({ tabId: z.number().int().describe('Id of the tab, from the tabs tool') }),
  async handle(args, ctx, response) {
    const tab = await ctx.browser.getTab(args.tabId);
    if (!tab) return void response.error(`There is no tab with id ${args.tabId}. Call tabs to list the open tabs.`);
    if (tab.windowId !== ctx.windowId) {
      return void response.error(
        `Tab ${args.tabId} is in another window; Tabwright works with the tabs of its own window. Call tabs to list them.`,
      );
    }
    const refusal = await ctx.checkDestination(tab.url ?? '');
    if (refusal) return void response.error(refusal);
    const active = await whenLoaded(ctx, await ctx.browser.activateTab(tab.id));
    await reportNewPage(ctx, response, active, `Switched to tab ${tab.id}`, { settle: false });
  },
});
