import { z } from 'zod';
import { namedTab } from '../tool-spec';
import { defineTool } from '../tool';
import { leaveDialogArg } from './action-args';
import { listTabs } from './tabs';

export const closeTab = defineTool({
  name: 'close_tab',
  title: 'Close tab',
  description:
    'Close one of your tabs by its id (from the tabs tool). Unsaved input in it is lost. Returns the tabs that ' +
    'remain. A page that asks before leaving is left open unless `dialog` says to accept.',
  effect: 'write',
  scope: 'tabs',
  destination: namedTab,
  namedTab: (args) => args.tabId,
  input: z.object({
    tabId: z.number().int().describe('Id of the tab to close, from the tabs tool'),
    dialog: leaveDialogArg,
  }),
  async handle(args, ctx, response) {
    const tab = await ctx.browser.getTab(args.tabId);
    if (!tab) return void response.error(`There is no tab with id ${args.tabId}. Call tabs to list the open tabs.`);
    if (/^chrome-extension:/i.test(tab.url ?? '')) {
      return void response.error(`Tab ${args.tabId} is an extension page; Tabwright does not close those.`);
    }
    const leaving = await ctx.leave(tab.id, 'close');
    if (leaving.refusal) return void response.error(leaving.refusal);
    try {
      await ctx.browser.closeTab(tab.id);
      ctx.callerTabs.closed(tab.id);
    } finally {
      await leaving.done();
    }
    const remaining = await listTabs(ctx);
    response.text(`Closed tab ${tab.id}. Open tabs:`);
    response.pageText('open tabs', remaining.text);
    response.structured({ closed: tab.id, tabs: remaining.tabs });
  },
});
