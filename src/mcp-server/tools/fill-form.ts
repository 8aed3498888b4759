import { z } from 'zod';
import type { ElementTarget } from '../../page/protocol';
import { elementTarget, performAction } from '../action-flow';
import { targetOf } from '../tool-spec';
import { defineTool } from '../tool';
import { dialogArg, refArg, selectorArg, TARGET_HELP, targetArg } from './action-args';

export const fillForm = defineTool({
  name: 'fill_form',
  title: 'Fill form',
  description:
    'Fill several form fields in one call, in order: text for text fields, true/false for checkboxes and radio ' +
    'buttons, an option value or label for drop-downs. Every field and value is checked before the first one is ' +
    'touched. Password values never appear in any result. Set submit to submit the form afterwards. For each ' +
    `field: ${TARGET_HELP}`,
  effect: 'write',
  scope: 'page',
  resolvesTargets: true,
  typedInto: (args) => args.fields.filter((field) => typeof field.value === 'string').flatMap(targetOf),
  input: z.object({
    fields: z
      .array(
        z.object({
          ref: refArg,
          target: targetArg,
          selector: selectorArg,
          value: z
            .union([z.string(), z.boolean(), z.array(z.string())])
            .describe('Text; true/false for a checkbox or radio; option value or label (a list for multi-selects)'),
        }),
      )
      .min(1)
      .max(100)
      .describe('The fields to fill, in order'),
    submit: z.boolean().default(false).describe('Submit the form after filling (as Enter in the last field would)'),
    dialog: dialogArg,
  }),
  async handle(args, ctx, response) {
    const fields: Array<{ target: ElementTarget; value: string | boolean | string[] }> = [];
    let frameId: number | undefined;
    for (const [index, field] of args.fields.entries()) {
      const at = elementTarget(field, `field number ${index + 1}`);
      if (typeof at === 'string') return void response.error(`Field ${index + 1}: ${at}`);
      if (frameId !== undefined && at.frameId !== frameId) {
        return void response.error('All fields of one fill_form call must be in the same frame; split the call.');
      }
      frameId = at.frameId;
      fields.push({ target: at.target, value: field.value });
    }
    await performAction(
      ctx,
      response,
      { op: 'fillForm', fields, submit: args.submit },
      { frameId, fallbackLine: `Filled ${fields.length} field${fields.length === 1 ? '' : 's'}` },
    );
  },
});
