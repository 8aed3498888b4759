import { z } from 'zod';
import { formatSnapshot } from '../snapshot-service';
import { defineTool } from '../tool';

export const click = defineTool({
  name: 'click',
  description:
    'Click an element, found by its ref from the latest snapshot (preferred) or by a CSS selector. Returns what was ' +
    'clicked and the page afterwards.',
  kind: 'write',
  target: 'page',
  input: z.object({
    ref: z.string().optional().describe('Ref of the element, from the latest snapshot (e.g. e12)'),
    selector: z.string().optional().describe('CSS selector, when there is no ref'),
    button: z.enum(['left', 'middle', 'right']).default('left').describe('Mouse button'),
    double: z.boolean().default(false).describe('Double-click'),
  }),
  async handle(args, ctx, response) {
    const tab = ctx.tab!;
    const target = args.ref ? { ref: args.ref } : args.selector ? { selector: args.selector } : undefined;
    if (!target) {
      response.error('Say which element to click: pass `ref` (from snapshot) or `selector`.');
      return;
    }
    const done = await ctx.browser.page.run(
      tab.id,
      { op: 'click', target, button: args.button, double: args.double },
      { signal: ctx.signal },
    );
    const after = await ctx.browser.getTab(tab.id);
    const taken = await ctx.snapshots.capture(after ?? tab, { signal: ctx.signal });
    response.text(done.description);
    response.pageText(new URL(taken.url).origin, formatSnapshot(taken));
  },
});
