import { z } from 'zod';
import { defuseHeaderLines, neutraliseText } from '../../shared/text/line';
import { DEFAULT_MAX_CHARS } from '../snapshot-format';
import { defineTool } from '../tool';
import { cutNote, originOf } from './page-read';

export const getText = defineTool({
  name: 'get_text',
  title: 'Read page text',
  description:
    'Read the visible text of the page (or of one part, by CSS selector), one line per block, hidden parts ' +
    'left out, frames included. For reading articles and messages; use snapshot to act on elements.',
  effect: 'read',
  scope: 'page',
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
    const tab = ctx.tab;
    const page = ctx.page;
    const command = { op: 'getText' as const, maxChars: args.maxChars };
    const top = await page.run(
      tab.id,
      { ...command, ...(args.selector ? { selector: args.selector } : {}) },
      { signal: ctx.signal, frameId: 0 },
    );
    const frames = args.selector ? [] : await page.readableFrames(tab.id);
    const children = await Promise.all(
      frames.map((frame) =>
        page.run(tab.id, command, { signal: ctx.signal, frameId: frame.frameId }).catch(() => undefined),
      ),
    );
    // Whether anything was cut is judged on the page's own text, before defusing changed its length.
    let cut = top.text.length < top.total;
    let text = defuseHeaderLines(top.text);
    let total = top.total;
    children.forEach((child) => {
      if (!child?.text) return;
      if (child.text.length < child.total) cut = true;
      const part = `\n\n# frame ${neutraliseText(child.url)}\n${defuseHeaderLines(child.text)}`;
      text += part;
      total += part.length - child.text.length + child.total;
    });
    if (args.maxChars && text.length > args.maxChars) {
      text = text.slice(0, args.maxChars);
      cut = true;
    }
    let body = `# text — ${neutraliseText(top.url)}\n${text}`;
    if (cut) body += cutNote(text.length, Math.max(total, text.length), args.maxChars);
    response.pageText(originOf(top.url), body);
  },
});
