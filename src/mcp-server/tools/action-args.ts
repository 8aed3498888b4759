/** Arguments the action tools share: how an element is named. */
import { z } from 'zod';

export const refArg = z
  .string()
  .min(1)
  .optional()
  .describe('Ref of the element, from the latest snapshot (e.g. e12); preferred over selector');

export const selectorArg = z.string().min(1).optional().describe('CSS selector of the element, when there is no ref');
