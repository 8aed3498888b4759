import type { PageEnv } from '../env';
import { PageError } from '../env';
import type { SnapshotCommand } from '../protocol';
import { snapshotLines } from '../snapshot';
import type { z } from 'zod';

export function runSnapshot(command: z.output<typeof SnapshotCommand>, env: PageEnv) {
  const refs = env.refs(command.frameId);
  refs.startAt(command.refBase);
  const root = command.selector ? env.document.querySelector(command.selector) : env.document.body;
  if (!root) throw new PageError(`No element matches the selector ${command.selector}.`, 'no-match');
  const lines = snapshotLines(root, refs);
  return { title: env.document.title, url: env.document.URL, lines, nextRef: refs.next };
}
