import { z } from 'zod';
import { reportNewPage } from '../action-flow';
import { leaveDialogArg } from './action-args';
import { defineTool } from '../tool';

export const history = defineTool({
  name: 'history',
  title: 'Go back or forward',
  description:
    "Go back or forward one step in the current tab's history, like the browser's buttons, and wait for the " +
    'page. At either end of the history nothing happens and the result says so. Returns the snapshot. A page ' +
    'that asks before leaving is left as it is unless `dialog` says to accept.',
  effect: 'write',
  scope: 'page',
  input: z.object({ direction: z.enum(['back', 'forward']).describe('back or forward'), dialog: leaveDialogArg }),
  async handle(args, ctx, response) {
    const leaving = await ctx.leave(ctx.tab.id, `go ${args.direction}`);
    if (leaving.refusal) return void response.error(leaving.refusal);
    try {
      const tab = await ctx.browser.goHistory(ctx.tab.id, args.direction, ctx.signal);
      await reportNewPage(ctx, response, tab, `Went ${args.direction} to ${tab.url ?? 'the previous page'}`);
    } finally {
      await leaving.done();
    }
  },
});
