import type { z } from 'zod';
import type { PageEnv } from '../env';
import { PageError } from '../env';
import type { SnapshotCommand } from '../protocol';
import { walkSnapshot } from '../snapshot';

/** How long a parent waits for its child frames' introductions before walking without them. */
const HANDSHAKE_WAIT_MS = 1_000;

export async function runSnapshot(command: z.output<typeof SnapshotCommand>, env: PageEnv) {
  const frameId = command.frames ? command.frames[env.documentId] : command.frameId;
  if (frameId === undefined)
    throw new PageError('This frame loaded a new document during the snapshot. Call snapshot again.', 'frame-changed');
  const refs = env.refs(frameId);
  refs.startAt(command.refBase);
  const nonce = command.nonce;
  const children = command.children?.[env.documentId];
  if (nonce && children?.length) await env.frames.awaitDocuments(nonce, children, HANDSHAKE_WAIT_MS);
  const root = env.queryRoot(frameId === 0 ? command.selector : undefined);
  const { lines, frames } = walkSnapshot(root, {
    refs,
    frameDocument: nonce ? (element) => env.frames.documentIn(element, nonce) : undefined,
  });
  refs.prune();
  return {
    title: env.document.title,
    url: env.document.URL,
    lines,
    frames,
    nextRef: refs.next,
    documentId: env.documentId,
  };
}
