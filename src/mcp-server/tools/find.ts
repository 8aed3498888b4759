import { z } from 'zod';
import { findLines, formatFind } from '../snapshot-format';
import { defineTool } from '../tool';
import { originOf } from './page-read';

export const find = defineTool({
  name: 'find',
  title: 'Find on page',
  description:
    'Search the page for elements by text and/or role and get each matching snapshot line with its ref, under a ' +
    '`# in …` line giving its place: its parent and nearest named ancestors (`# in dialog "Edit profile" › form`; ' +
    '`row 3` is the third row of its parent). Pass `context` for the lines around each match instead. Use it on ' +
    'large pages instead of reading the whole snapshot.',
  effect: 'read',
  scope: 'page',
  input: z.object({
    text: z.string().min(1).optional().describe('Text to look for in names, values and page text (case-insensitive)'),
    role: z
      .string()
      .min(1)
      .optional()
      .describe('Only lines with this role, e.g. button, link, textbox, heading, row, text'),
    context: z
      .number()
      .int()
      .min(0)
      .max(20)
      .optional()
      .describe('Lines of context before and after each match instead of its place (default: its place)'),
  }),
  async handle(args, ctx, response) {
    if (!args.text && !args.role) {
      response.error('Say what to find: pass `text`, `role`, or both.');
      return;
    }
    // A fresh snapshot, so every ref in the answer is current; it becomes the latest snapshot.
    const taken = await ctx.readPage(ctx.tab);
    const query = { text: args.text, role: args.role, context: args.context };
    const origin = originOf(taken.url);
    response.pageText(origin, formatFind(taken, findLines(taken.lines, query), { origin }));
  },
});
