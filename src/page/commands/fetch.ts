/**
 * A request the page itself could make for a connector: same origin, the page's own cookies,
 * nothing else, so the site sees an ordinary same-origin request.
 */
import type { z } from 'zod';
import { PageError, type PageEnv } from '../env';
import type { FetchCommand, FetchReply } from '../protocol';

export async function runFetch(command: z.output<typeof FetchCommand>, env: PageEnv): Promise<FetchReply> {
  const here = env.document.location;
  const target = new URL(command.url, here.href);
  if (target.origin !== here.origin) {
    throw new PageError(`Connectors may only fetch from ${here.origin}.`, 'cross-origin');
  }
  const init: RequestInit = { method: command.method, credentials: 'same-origin', headers: { ...command.headers } };
  if (command.form) init.body = new URLSearchParams(command.form);
  else if (command.body !== undefined) init.body = command.body;
  let response: Response;
  let text: string;
  try {
    response = await fetch(target.href, init);
    text = await response.text();
  } catch (error) {
    throw new PageError(`The request failed: ${String((error as Error)?.message ?? error)}`, 'fetch-failed');
  }
  return {
    status: response.status,
    url: response.url,
    redirected: response.redirected,
    contentType: response.headers.get('content-type') ?? '',
    text: text.slice(0, command.maxChars),
    truncated: text.length > command.maxChars,
  };
}
