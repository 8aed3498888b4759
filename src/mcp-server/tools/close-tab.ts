import { z } from 'zod';
import { heldText } from '../dialogs';
import { leaveRefusal } from '../dialogs';
import { namedTab } from '../tool-spec';
import { defineTool } from '../tool';
import { leaveDialogArg } from './action-args';
import { listTabs } from './tabs';

export const closeTab = defineTool({
  name: 'close_tab',
  title: 'Close tab',
  description:
    'Close a tab by its id (from the tabs tool). Unsaved input in it is lost. Returns the tabs that remain; if the ' +
    'closed tab was the active one, the tab now in front is what the other tools act on. A page that asks before ' +
    'leaving is left open unless `dialog` says to accept.',
  effect: 'write',
  scope: 'tabs',
  destination: namedTab,
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
    // Asking the page whether leaving would prompt waits on it, and the user's dialog is theirs to answer.
    const held = await ctx.holds?.held(tab.id);
    if (held) return void response.error(heldText(held));
    const asks = await leaveRefusal(ctx, tab.id, 'close');
    if (asks) return void response.error(asks);
    await ctx.browser.closeTab(tab.id);
    const remaining = await listTabs(ctx);
    response.text(`Closed tab ${tab.id}. Open tabs:`);
    response.pageText('open tabs', remaining.text);
    response.structured({ closed: tab.id, tabs: remaining.tabs });
  },
});
