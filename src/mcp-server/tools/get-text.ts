import { z } from 'zod';
import { neutraliseText } from '../../page/neutralise';
import { DEFAULT_MAX_CHARS } from '../snapshot-format';
import { defineTool, type ToolContext } from '../tool';
import { cutNote, originOf } from './page-read';

/** Child frames whose text may be shown (the site rules apply to them too), with their URL. */
async function readableFrames(ctx: ToolContext) {
  const frames = await ctx.browser.page.frames(ctx.tab!.id).catch(() => []);
  const allowed = await Promise.all(
    frames.map(async (frame) => {
      if (frame.frameId === 0) return false;
      return /^about:/.test(frame.url) || (await ctx.checkDestination(frame.url)) === undefined;
    }),
  );
  return frames.filter((_, i) => allowed[i]);
}

export const getText = defineTool({
  name: 'get_text',
  description:
    'Read the visible text of the page (or of one part, by CSS selector), one line per block, hidden parts ' +
    'left out, frames included. For reading articles and messages; use snapshot to act on elements.',
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
    const page = ctx.browser.page;
    const command = { op: 'getText' as const, maxChars: args.maxChars };
    const top = await page.run(
      tab.id,
      { ...command, ...(args.selector ? { selector: args.selector } : {}) },
      { signal: ctx.signal, frameId: 0 },
    );
    const frames = args.selector ? [] : await readableFrames(ctx);
    const children = await Promise.all(
      frames.map((frame) =>
        page.run(tab.id, command, { signal: ctx.signal, frameId: frame.frameId }).catch(() => undefined),
      ),
    );
    let text = top.text;
    let total = top.total;
    children.forEach((child) => {
      if (!child?.text) return;
      const part = `\n\n# frame ${neutraliseText(child.url)}\n${child.text}`;
      text += part;
      total += part.length - child.text.length + child.total;
    });
    if (args.maxChars && text.length > args.maxChars) text = text.slice(0, args.maxChars);
    let body = `# text — ${neutraliseText(top.url)}\n${text}`;
    if (text.length < total) body += cutNote(text.length, total, args.maxChars);
    response.pageText(originOf(top.url), body);
  },
});
