import { z } from 'zod';
import { elementTarget, namesElement, performAction, targetLabel } from '../action-flow';
import { defineTool } from '../tool';
import { dialogArg, refArg, selectorArg, TARGET_HELP, targetArg } from './action-args';

export const pressKey = defineTool({
  name: 'press_key',
  title: 'Press key',
  description:
    'Press a key or key combination, on an element (focused first) or on whatever has focus: Enter, Escape, Tab, ' +
    'Backspace, ArrowDown, PageDown, a single character, or combinations such as Control+a or Shift+Tab. The ' +
    "browser's usual effect follows unless the page handles the key (Enter submits, Tab moves focus, Escape " +
    `closes a dialog). Returns what changed on the page. ${TARGET_HELP}`,
  effect: 'write',
  scope: 'page',
  resolvesTargets: true,
  input: z.object({
    key: z.string().min(1).max(64).describe('Key name or combination, e.g. Enter, Escape, ArrowDown, Control+a'),
    ref: refArg,
    target: targetArg,
    selector: selectorArg,
    dialog: dialogArg,
  }),
  async handle(args, ctx, response) {
    const at = namesElement(args) ? elementTarget(args) : undefined;
    if (typeof at === 'string') return void response.error(at);
    await performAction(
      ctx,
      response,
      { op: 'pressKey', key: args.key, ...(at ? { target: at.target } : {}) },
      { frameId: at?.frameId ?? 0, fallbackLine: `Pressed ${args.key}${at ? ` on ${targetLabel(ctx, args)}` : ''}` },
    );
  },
});
