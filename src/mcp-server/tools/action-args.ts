/** Arguments the action tools share: how an element is named. */
import { z } from 'zod';
import { DialogAnswer } from '../../page/protocol';
import { refFromMark } from '../../page/snapshot-line';
import { TargetArg } from '../target-args';

/** When a ref and when a target: said the same way in every tool that takes an element. */
export const TARGET_HELP =
  'Name the element by `ref` when its snapshot line has one; otherwise (a region, a cell, a list item, a run of ' +
  'text as role "text") by `target`: its role and name exactly as the snapshot prints them, with `nth` when ' +
  'several match.';

/** A ref as the agent wrote it: the id, or the id as its line prints it (`[e12]`). */
export const RefText = z.string().min(1).transform(refFromMark);

export const refArg = RefText.optional().describe(
  'Ref of the element, from its line in the latest snapshot (e12 for `[e12]`); preferred when its line has one',
);

export const selectorArg = z
  .string()
  .min(1)
  .optional()
  .describe('CSS selector of the element, when neither a ref nor a target will do');

export const targetArg = TargetArg.optional().describe(
  'The element as the snapshot prints it, { role, name, nth? }, e.g. { "role": "gridcell", "name": "1760" }: ' +
    'for a line without a ref, or instead of taking a ref first',
);

/**
 * How to answer a JavaScript dialog (alert, confirm, prompt) the action makes the page open. Given
 * up front because the page waits for the answer synchronously; without it such a dialog is
 * dismissed and the result says what it asked. Leaving tools take it for "Leave site?" prompts.
 */
export const dialogArg = DialogAnswer.extend({
  accept: DialogAnswer.shape.accept.describe('true answers OK (confirm, prompt, leave the page), false answers Cancel'),
  promptText: DialogAnswer.shape.promptText.describe('Text to answer a prompt with, when accepting it'),
})
  .optional()
  .describe(
    'How to answer a dialog (alert, confirm, prompt) this action makes the page open. Without it such a dialog ' +
      'is dismissed and the result quotes it; repeat the action with this to answer it',
  );

/** The same answer, for tools that leave the page: what to do when it asks "Leave site?". */
export const leaveDialogArg = dialogArg.describe(
  'Pass { "accept": true } to leave even though the page asks before leaving (it may hold unsaved changes). ' +
    'Without it, a page that asks is left as it is and the result says so',
);
