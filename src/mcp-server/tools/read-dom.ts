import { z } from 'zod';
import { defuseHeaderLines } from '../../shared/text/line';
import { DEFAULT_MAX_CHARS } from '../snapshot-format';
import { defineTool } from '../tool';
import { cutNote, originOf } from './page-read';

export const readDom = defineTool({
  name: 'read_dom',
  title: 'Read page HTML',
  description:
    "Read the page's HTML (outerHTML of the page or of one element, by CSS selector), with open shadow roots, " +
    'script bodies left out and password values hidden. For details the snapshot does not show (attributes, ' +
    'link targets, structure).',
  effect: 'read',
  scope: 'page',
  input: z.object({
    selector: z.string().min(1).optional().describe('CSS selector of the element to read; the whole body when omitted'),
    maxChars: z
      .number()
      .int()
      .min(0)
      .default(DEFAULT_MAX_CHARS)
      .describe('Character cap (default 24000); 0 for no cap'),
  }),
  async handle(args, ctx, response) {
    const reply = await ctx.page.run(
      ctx.tab.id,
      { op: 'readDom', maxChars: args.maxChars, ...(args.selector ? { selector: args.selector } : {}) },
      { signal: ctx.signal, frameId: 0 },
    );
    let text = defuseHeaderLines(reply.html);
    if (reply.html.length < reply.total) text += cutNote(reply.html.length, reply.total, args.maxChars);
    response.pageText(originOf(reply.url), text);
  },
});
