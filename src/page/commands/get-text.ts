import type { z } from 'zod';
import type { PageEnv } from '../env';
import type { GetTextCommand } from '../protocol';
import { readableText } from '../readable-text';

export function runGetText(command: z.output<typeof GetTextCommand>, env: PageEnv) {
  const text = readableText(env.queryRoot(command.selector));
  return {
    title: env.document.title,
    url: env.document.URL,
    // Capped here too, so a huge page does not cross the process boundary whole.
    text: command.maxChars ? text.slice(0, command.maxChars) : text,
    total: text.length,
    documentId: env.documentId,
  };
}
