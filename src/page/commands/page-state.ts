/** Whether the document shows a connector's sign-in form; the reply's URL says where the tab is. */
import type { z } from 'zod';
import type { PageEnv } from '../env';
import type { PageStateCommand } from '../protocol';

export function runPageState(command: z.output<typeof PageStateCommand>, env: PageEnv) {
  let signedOut = false;
  if (command.signedOutSelector) {
    try {
      signedOut = env.document.querySelector(command.signedOutSelector) !== null;
    } catch {
      // A selector the page cannot parse finds no sign-in form.
      signedOut = false;
    }
  }
  return { signedOut };
}
