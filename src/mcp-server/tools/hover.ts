import { z } from 'zod';
import { elementTarget, performAction, targetLabel } from '../action-flow';
import { defineTool } from '../tool';
import { refArg, selectorArg, TARGET_HELP, targetArg } from './action-args';

export const hover = defineTool({
  name: 'hover',
  title: 'Hover',
  description:
    'Move the mouse over an element, to open hover menus and tooltips (menus drawn with CSS :hover included). ' +
    `Changes nothing on the page by itself. Returns what appeared or changed. ${TARGET_HELP}`,
  effect: 'read',
  scope: 'page',
  resolvesTargets: true,
  input: z.object({ ref: refArg, target: targetArg, selector: selectorArg }),
  async handle(args, ctx, response) {
    const at = elementTarget(args, 'element to hover over');
    if (typeof at === 'string') return void response.error(at);
    await performAction(
      ctx,
      response,
      { op: 'hover', target: at.target },
      { frameId: at.frameId, fallbackLine: `Hovered over ${targetLabel(ctx, args)}` },
    );
  },
});
