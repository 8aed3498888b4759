import { z } from 'zod';
import { elementTarget, performAction, targetLabel } from '../action-flow';
import { targetOf } from '../tool-spec';
import { defineTool } from '../tool';
import { dialogArg, refArg, selectorArg, TARGET_HELP, targetArg } from './action-args';

export const MAX_TYPED_CHARS = 10_000;

export const type = defineTool({
  name: 'type',
  title: 'Type text',
  description:
    'Type text into a text field, textarea or rich-text editor, key by key as a person would, so the page reacts ' +
    'as it does to real typing. Date, time, colour and range inputs take their value whole (e.g. 2024-05-31). ' +
    'Replaces the current content unless clear is false. What is typed into password fields never appears in ' +
    `any result. Returns what changed on the page. ${TARGET_HELP}`,
  effect: 'write',
  scope: 'page',
  resolvesTargets: true,
  typedInto: (args) => targetOf(args),
  input: z.object({
    ref: refArg,
    target: targetArg,
    selector: selectorArg,
    text: z.string().max(MAX_TYPED_CHARS).describe('The text to type'),
    clear: z.boolean().default(true).describe('Empty the field first (default true); false appends to what is there'),
    submit: z.boolean().default(false).describe('Press Enter afterwards, which submits the form the field is in'),
    dialog: dialogArg,
  }),
  async handle(args, ctx, response) {
    const at = elementTarget(args, 'field to type into');
    if (typeof at === 'string') return void response.error(at);
    await performAction(
      ctx,
      response,
      { op: 'type', target: at.target, text: args.text, clear: args.clear, submit: args.submit },
      {
        frameId: at.frameId,
        // Said when the page went away before it could answer (a submit that navigated at once):
        // a count, since only the page knows whether the field hides what is typed.
        fallbackLine:
          `Typed ${[...args.text].length} characters into ${targetLabel(ctx, args)}` +
          (args.submit ? ' and pressed Enter' : ''),
      },
    );
  },
});
