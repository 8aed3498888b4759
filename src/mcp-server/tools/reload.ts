import { z } from 'zod';
import { reportNewPage } from '../action-flow';
import { defineTool } from '../tool';

export const reload = defineTool({
  name: 'reload',
  title: 'Reload',
  description:
    'Reload the current tab and wait for it to load. Unsaved input on the page is lost. Returns the snapshot.',
  effect: 'write',
  scope: 'page',
  input: z.object({
    bypassCache: z.boolean().default(false).describe('Reload from the network, ignoring the browser cache'),
  }),
  async handle(args, ctx, response) {
    const tab = await ctx.browser.reload(ctx.tab.id, args.bypassCache, ctx.signal);
    await reportNewPage(
      ctx,
      response,
      tab,
      `Reloaded ${tab.url ?? 'the page'}${args.bypassCache ? ' (bypassing the cache)' : ''}`,
    );
  },
});
