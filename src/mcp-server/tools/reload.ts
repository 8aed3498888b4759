import { z } from 'zod';
import { reportNewPage } from '../action-flow';
import { leaveDialogArg } from './action-args';
import { defineTool } from '../tool';

export const reload = defineTool({
  name: 'reload',
  title: 'Reload',
  description:
    'Reload the current tab and wait for it to load. Unsaved input on the page is lost. Returns the snapshot. ' +
    'A page that asks before leaving is left as it is unless `dialog` says to accept.',
  effect: 'write',
  scope: 'page',
  input: z.object({
    bypassCache: z.boolean().default(false).describe('Reload from the network, ignoring the browser cache'),
    dialog: leaveDialogArg,
  }),
  async handle(args, ctx, response) {
    const leaving = await ctx.leave(ctx.tab.id, 'reload');
    if (leaving.refusal) return void response.error(leaving.refusal);
    try {
      const tab = await ctx.browser.reload(ctx.tab.id, args.bypassCache, ctx.signal);
      await reportNewPage(
        ctx,
        response,
        tab,
        `Reloaded ${tab.url ?? 'the page'}${args.bypassCache ? ' (bypassing the cache)' : ''}`,
      );
    } finally {
      await leaving.done();
    }
  },
});
