import type { z } from 'zod';
import type { PageEnv } from '../env';
import type { HelloCommand } from '../protocol';

/** First round of a multi-frame snapshot: every document introduces itself to its parent. */
export function runHello(command: z.output<typeof HelloCommand>, env: PageEnv) {
  env.frames.announce(command.nonce, env.documentId);
  return { documentId: env.documentId, url: env.document.URL };
}
