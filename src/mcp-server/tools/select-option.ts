import { z } from 'zod';
import { elementTarget, performAction, targetLabel } from '../action-flow';
import { defineTool } from '../tool';
import { dialogArg, refArg, selectorArg, TARGET_HELP, targetArg } from './action-args';

const oneOrMany = z.union([z.string(), z.array(z.string()).min(1)]);

export const selectOption = defineTool({
  name: 'select_option',
  title: 'Select option',
  description:
    'Choose an option in a drop-down (<select>), by its value or by the label the user sees. For a multi-select, ' +
    'pass a list. An unknown option is refused with the list of valid ones. Returns what changed on the page. ' +
    TARGET_HELP,
  effect: 'write',
  scope: 'page',
  resolvesTargets: true,
  input: z.object({
    ref: refArg,
    target: targetArg,
    selector: selectorArg,
    value: oneOrMany.optional().describe('The option value (or values, for a multi-select)'),
    label: oneOrMany.optional().describe('The visible option label (or labels), when the value is not known'),
    dialog: dialogArg,
  }),
  async handle(args, ctx, response) {
    const at = elementTarget(args, 'drop-down');
    if (typeof at === 'string') return void response.error(at);
    if ((args.value === undefined) === (args.label === undefined)) {
      return void response.error('Pass exactly one of `value` or `label` to say which option to select.');
    }
    const list = (item: string | string[] | undefined) => (item === undefined ? undefined : [item].flat());
    await performAction(
      ctx,
      response,
      { op: 'selectOption', target: at.target, values: list(args.value), labels: list(args.label) },
      { frameId: at.frameId, fallbackLine: `Selected an option in ${targetLabel(ctx, args)}` },
    );
  },
});
