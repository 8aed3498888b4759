import type { z } from 'zod';
import type { PageEnv } from '../env';
import { runAction } from '../actions/run-action';
import type { SettleCommand } from '../protocol';

/** Waits for the document to settle without acting: after a history step inside a single-page app. */
export function runSettle(command: z.output<typeof SettleCommand>, env: PageEnv) {
  // Nothing is done under the watch, so the page's record cannot vouch for an idle end.
  return runAction(env, command, () => 'Waited for the page to settle', { acts: false });
}
