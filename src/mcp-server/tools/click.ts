import { z } from 'zod';
import { elementTarget, performAction, targetLabel } from '../action-flow';
import { defineTool } from '../tool';
import { dialogArg, refArg, selectorArg, TARGET_HELP, targetArg } from './action-args';

export const click = defineTool({
  name: 'click',
  title: 'Click',
  description:
    'Click an element. The click lands where a person would click; it is refused, with the reason, when the ' +
    'element is hidden, disabled, moving or covered by something else. Returns what was clicked and what changed ' +
    `on the page (or the new page after a navigation). ${TARGET_HELP}`,
  effect: 'write',
  scope: 'page',
  resolvesTargets: true,
  input: z.object({
    ref: refArg,
    target: targetArg,
    selector: selectorArg,
    button: z.enum(['left', 'middle', 'right']).default('left').describe('Mouse button (default left)'),
    double: z.boolean().default(false).describe('Double-click instead of a single click'),
    dialog: dialogArg,
  }),
  async handle(args, ctx, response) {
    const at = elementTarget(args, 'element to click');
    if (typeof at === 'string') return void response.error(at);
    await performAction(
      ctx,
      response,
      { op: 'click', target: at.target, button: args.button, double: args.double },
      { frameId: at.frameId, fallbackLine: `Clicked ${targetLabel(ctx, args)}` },
    );
  },
});
