import { z } from 'zod';
import { DEFAULT_MAX_CHARS } from '../snapshot-format';
import { defineTool } from '../tool';
import { cutNote, originOf } from './page-read';

export const getText = defineTool({
  name: 'get_text',
  description:
    'Read the visible text of the page (or of one part, by CSS selector), one line per block, hidden parts ' +
    'left out. For reading articles and messages; use snapshot to act on elements.',
  kind: 'read',
  target: 'page',
  input: z.object({
    selector: z.string().min(1).optional().describe('CSS selector of the part to read; the whole page when omitted'),
    maxChars: z
      .number()
      .int()
      .min(0)
      .default(DEFAULT_MAX_CHARS)
      .describe('Character cap (default 24000); 0 for no cap'),
  }),
  async handle(args, ctx, response) {
    const tab = ctx.tab!;
    const reply = await ctx.browser.page.run(
      tab.id,
      { op: 'getText', maxChars: args.maxChars, ...(args.selector ? { selector: args.selector } : {}) },
      { signal: ctx.signal, frameId: 0 },
    );
    let text = `# text — ${reply.url}\n${reply.text}`;
    if (reply.text.length < reply.total) text += cutNote(reply.text.length, reply.total, args.maxChars);
    response.pageText(originOf(reply.url), text);
  },
});
