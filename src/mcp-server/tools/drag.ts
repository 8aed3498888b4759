import { z } from 'zod';
import { elementTarget, namesElement, performAction, targetLabel } from '../action-flow';
import { defineTool } from '../tool';
import { TargetArg } from '../target-args';
import { dialogArg, RefText, TARGET_HELP, targetArg } from './action-args';

export const drag = defineTool({
  name: 'drag',
  title: 'Drag and drop',
  description:
    'Drag an element onto another, e.g. to reorder a list or move a card to another column. Name the source by ' +
    '`ref`, `target` or `selector` and where to drop it by `toRef`, `toTarget` or `toSelector` — a column or drop ' +
    'zone is often printed without a ref, as { "role": "region", "name": "Done" }. Works with HTML5 drag and drop ' +
    'and with libraries that follow the mouse; both must be visible and not covered. Returns what was dragged and ' +
    `what changed on the page. ${TARGET_HELP}`,
  effect: 'write',
  scope: 'page',
  resolvesTargets: true,
  input: z.object({
    ref: RefText.optional().describe(
      'Ref of the element to drag, from its line in the latest snapshot (e12 for `[e12]`)',
    ),
    target: targetArg,
    selector: z
      .string()
      .min(1)
      .optional()
      .describe('CSS selector of the element to drag, when neither a ref nor a target will do'),
    toRef: RefText.optional().describe('Ref of the element to drop it onto, from the latest snapshot'),
    toTarget: TargetArg.optional().describe(
      'The element to drop it onto as the snapshot prints it, { role, name, nth? }, e.g. { "role": "region", ' +
        '"name": "Done" }: for a line without a ref, or instead of taking a ref first',
    ),
    toSelector: z
      .string()
      .min(1)
      .optional()
      .describe('CSS selector of the element to drop it onto, when neither a ref nor a target will do'),
    dialog: dialogArg,
  }),
  async handle(args, ctx, response) {
    const source = elementTarget(args, 'element to drag');
    if (typeof source === 'string') return void response.error(source);
    const toArgs = { ref: args.toRef, selector: args.toSelector, target: args.toTarget };
    if (!namesElement(toArgs)) {
      return void response.error(
        'Say where to drop it: pass `toRef` (from the latest snapshot), `toTarget` (role and name as the snapshot ' +
          'prints them) or a CSS `toSelector`.',
      );
    }
    const to = elementTarget(toArgs, 'drop target');
    if (typeof to === 'string') return void response.error(to);
    if (source.frameId !== to.frameId) {
      return void response.error(
        'The element and the drop target are in different frames; drag works within one frame. Nothing was dragged.',
      );
    }
    const toLabel = targetLabel(ctx, toArgs);
    await performAction(
      ctx,
      response,
      { op: 'drag', source: source.target, to: to.target },
      { frameId: source.frameId, fallbackLine: `Dragged ${targetLabel(ctx, args)} onto ${toLabel}` },
    );
  },
});
