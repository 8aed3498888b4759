import { z } from 'zod';
import { DEFAULT_MAX_CHARS, formatSnapshot } from '../snapshot-service';
import { defineTool } from '../tool';

export const snapshot = defineTool({
  name: 'snapshot',
  description:
    'Read the current tab as an accessibility tree: one line per element with its role and name, and a ref on ' +
    'each interactive element (use the ref with click, type and the other actions). The primary way to see a page.',
  kind: 'read',
  target: 'page',
  input: z.object({
    selector: z
      .string()
      .optional()
      .describe('CSS selector of the part of the page to read; the whole page when omitted'),
    maxChars: z
      .number()
      .int()
      .min(0)
      .default(DEFAULT_MAX_CHARS)
      .describe('Character budget for the snapshot; 0 for no budget'),
  }),
  async handle(args, ctx, response) {
    const tab = ctx.tab!;
    const taken = await ctx.snapshots.capture(tab, { selector: args.selector, signal: ctx.signal });
    response.pageText(new URL(taken.url).origin, formatSnapshot(taken, args.maxChars));
  },
});
