import { z } from 'zod';
import { elementTarget, performAction, targetLabel } from '../action-flow';
import { defineTool } from '../tool';
import { dialogArg } from './action-args';

export const drag = defineTool({
  name: 'drag',
  title: 'Drag and drop',
  description:
    'Drag an element onto another, e.g. to reorder a list or move a card to another column. Name the source by ' +
    '`ref` or `selector` and the drop target by `toRef` or `toSelector` (refs from the latest snapshot preferred). ' +
    'Works with HTML5 drag and drop and with libraries that follow the mouse; both must be visible and not covered. ' +
    'Returns what was dragged and what changed on the page.',
  effect: 'write',
  scope: 'page',
  input: z.object({
    ref: z.string().min(1).optional().describe('Ref of the element to drag, from the latest snapshot (e.g. e12)'),
    selector: z.string().min(1).optional().describe('CSS selector of the element to drag, when there is no ref'),
    toRef: z.string().min(1).optional().describe('Ref of the element to drop it onto, from the latest snapshot'),
    toSelector: z
      .string()
      .min(1)
      .optional()
      .describe('CSS selector of the element to drop it onto, when there is no ref'),
    dialog: dialogArg,
  }),
  async handle(args, ctx, response) {
    const source = elementTarget(args, 'element to drag');
    if (typeof source === 'string') return void response.error(source);
    if (args.toRef === undefined && args.toSelector === undefined) {
      return void response.error(
        'Say where to drop it: pass `toRef` (from the latest snapshot) or a CSS `toSelector`.',
      );
    }
    const to = elementTarget({ ref: args.toRef, selector: args.toSelector }, 'drop target');
    if (typeof to === 'string') return void response.error(to);
    if (source.frameId !== to.frameId) {
      return void response.error(
        'The element and the drop target are in different frames; drag works within one frame. Nothing was dragged.',
      );
    }
    const toLabel = targetLabel(ctx, { ref: args.toRef, selector: args.toSelector });
    await performAction(
      ctx,
      response,
      { op: 'drag', source: source.target, to: to.target },
      { frameId: source.frameId, fallbackLine: `Dragged ${targetLabel(ctx, args)} onto ${toLabel}` },
    );
  },
});
