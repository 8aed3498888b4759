import { z } from 'zod';
import { reportNewPage } from '../action-flow';
import { urlArgument } from '../tool-spec';
import { defineTool } from '../tool';
import { checkWebUrl } from './navigate';

export const newTab = defineTool({
  name: 'new_tab',
  title: 'Open new tab',
  description:
    'Open a tab of your own, in the background unless `active` says otherwise, optionally loading an http(s) URL ' +
    "on an allowed site. It becomes the tab the other tools act on (for an agent that follows the user's tab, " +
    'only when it is brought to the front). Returns the tab id, and the snapshot when it has a URL.',
  effect: 'write',
  scope: 'tabs',
  destination: urlArgument,
  input: z.object({
    url: z.string().min(1).max(8_192).optional().describe('Absolute http(s) URL to load; a blank tab when omitted'),
    active: z
      .boolean()
      .default(false)
      .describe('Bring the tab to the front, in front of what the user is doing (default false: the background)'),
  }),
  async handle(args, ctx, response) {
    if (args.url !== undefined) {
      const problem = checkWebUrl(args.url);
      if (problem) return void response.error(problem);
      const refusal = await ctx.checkDestination(args.url);
      if (refusal) return void response.error(refusal);
    }
    const tab = await ctx.browser.createTab(
      { ...(args.url !== undefined ? { url: args.url } : {}), active: args.active, windowId: ctx.windowId },
      ctx.signal,
    );
    ctx.callerTabs.opened(tab.id, true);
    response.structured({ tabId: tab.id, active: args.active });
    const opened = `Opened tab ${tab.id}${args.url ? ` with ${args.url}` : ''}${args.active ? '' : ' in the background'}`;
    if (!args.url) return void response.text(`${opened}. Use navigate to load a page in it.`);
    // An agent that follows the user's tab works in the tab in front: a tab left behind is not where it works.
    if (ctx.callerTabs.follows && !args.active) return void response.text(`${opened}.`);
    await reportNewPage(ctx, response, tab, opened);
  },
});
