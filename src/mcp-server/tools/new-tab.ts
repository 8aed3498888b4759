import { z } from 'zod';
import { reportNewPage } from '../action-flow';
import { urlArgument } from '../tool-spec';
import { defineTool } from '../tool';
import { checkWebUrl } from './navigate';

export const newTab = defineTool({
  name: 'new_tab',
  title: 'Open new tab',
  description:
    'Open a new tab in this window, optionally loading an http(s) URL on an allowed site. An active new tab ' +
    'becomes the tab the other tools act on. Returns the tab id, and the snapshot when it is active and has a URL.',
  effect: 'write',
  scope: 'tabs',
  destination: urlArgument,
  input: z.object({
    url: z.string().min(1).max(8_192).optional().describe('Absolute http(s) URL to load; a blank tab when omitted'),
    active: z.boolean().default(true).describe('Bring the tab to the front (default true)'),
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
    response.structured({ tabId: tab.id, active: args.active });
    const opened = `Opened tab ${tab.id}${args.url ? ` with ${args.url}` : ''}${args.active ? '' : ' in the background'}`;
    if (!args.url) return void response.text(`${opened}. Use navigate to load a page in it.`);
    if (!args.active) return void response.text(`${opened}. Use switch_tab to work in it.`);
    await reportNewPage(ctx, response, tab, opened);
  },
});
