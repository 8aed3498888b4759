import { z } from 'zod';
import { elementTarget, namesElement, performAction } from '../action-flow';
import { defineTool } from '../tool';
import { refArg, selectorArg, TARGET_HELP, targetArg } from './action-args';

export const scroll = defineTool({
  name: 'scroll',
  title: 'Scroll',
  description:
    'Scroll the page: to the top or bottom, by an amount in a direction, or until an element is in view (the ' +
    'element alone). With an element and a direction, scrolls the scrolling area that element is in. Use it to ' +
    `load more content on pages that load as you scroll. Returns the new position and what appeared. ${TARGET_HELP}`,
  effect: 'read',
  scope: 'page',
  resolvesTargets: true,
  input: z.object({
    to: z.enum(['top', 'bottom']).optional().describe('Scroll all the way to the top or the bottom'),
    direction: z.enum(['up', 'down', 'left', 'right']).optional().describe('Scroll in this direction'),
    amount: z
      .number()
      .positive()
      .max(100_000)
      .optional()
      .describe('How far to scroll in pixels (default: 80% of the visible height or width)'),
    ref: refArg,
    target: targetArg,
    selector: selectorArg,
  }),
  async handle(args, ctx, response) {
    if (args.to && args.direction) return void response.error('Pass either `to` or `direction`, not both.');
    const at = namesElement(args) ? elementTarget(args) : undefined;
    if (typeof at === 'string') return void response.error(at);
    const how = args.to ?? args.direction ?? (at ? 'into view' : 'down');
    await performAction(
      ctx,
      response,
      {
        op: 'scroll',
        ...(at ? { target: at.target } : {}),
        ...(args.to ? { to: args.to } : {}),
        ...(args.direction || (!at && !args.to) ? { direction: args.direction ?? 'down' } : {}),
        ...(args.amount ? { amount: args.amount } : {}),
      },
      { frameId: at?.frameId ?? 0, fallbackLine: `Scrolled ${how}` },
    );
  },
});
