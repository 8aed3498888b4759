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
    'Work in another of your own tabs (ids from the tabs tool): the other tools act on it from now on. What the ' +
    'user sees does not change. Returns the snapshot of that tab.',
  effect: 'read',
  scope: 'tabs',
  destination: namedTab,
  namedTab: (args) => args.tabId,
  input: z.object({ tabId: z.number().int().describe('Id of one of your tabs, from the tabs tool') }),
  async handle(args, ctx, response) {
    if (ctx.callerTabs.follows) {
      return void response.error(
        'You work in the tab the user has in front ("Follow my current tab" is on), so which tab that is is the ' +
          `user's choice: ask them to bring tab ${args.tabId} to the front.`,
      );
    }
    const tab = await ctx.browser.getTab(args.tabId);
    if (!tab) return void response.error(`There is no tab with id ${args.tabId}. Call tabs to list your tabs.`);
    const refusal = await ctx.checkDestination(tab.url ?? '');
    if (refusal) return void response.error(refusal);
    ctx.callerTabs.switchTo(tab.id);
    await reportNewPage(ctx, response, await whenLoaded(ctx, tab), `Switched to tab ${tab.id}`, { settle: false });
  },
});
