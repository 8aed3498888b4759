/** Arguments the action tools share: how an element is named. */
import { z } from 'zod';
import { DialogAnswer } from '../../page/protocol';

export const refArg = z
  .string()
  .min(1)
  .optional()
  .describe('Ref of the element, from the latest snapshot (e.g. e12); preferred over selector');

export const selectorArg = z.string().min(1).optional().describe('CSS selector of the element, when there is no ref');

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
