import { z } from 'zod';
import { DEFAULT_MAX_CHARS, formatSnapshot } from '../snapshot-format';
import { defineTool } from '../tool';
import { originOf } from './page-read';

export const snapshot = defineTool({
  name: 'snapshot',
  title: 'Page snapshot',
  description:
    'Read the current tab as an accessibility tree: one line per element, `- role "name"`, with a ref in brackets on ' +
    'each element that can be acted on (`[e12]`: pass e12 as `ref` to click, type and the other actions) and states such as [checked] or ' +
    '[expanded=false]. A table row is one line, its items separated by " | ", a plain cell without its role ' +
    '(cell in a table, gridcell in a grid). Frames are included. The primary way to see a page; refs stay valid ' +
    'until the element leaves the page.',
  effect: 'read',
  scope: 'page',
  input: z.object({
    selector: z
      .string()
      .min(1)
      .optional()
      .describe('CSS selector of the part of the page to read; the whole page when omitted'),
    maxChars: z
      .number()
      .int()
      .min(0)
      .default(DEFAULT_MAX_CHARS)
      .describe('Character budget for the snapshot (default 24000); 0 for no budget'),
  }),
  async handle(args, ctx, response) {
    const taken = await ctx.readPage(ctx.tab, { selector: args.selector });
    const origin = originOf(taken.url);
    response.pageText(origin, formatSnapshot(taken, args.maxChars, origin));
  },
});
