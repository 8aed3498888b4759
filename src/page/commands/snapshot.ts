import type { z } from 'zod';
import type { PageEnv } from '../env';
import { PageError } from '../env';
import type { FrameSlotsCommand, SnapshotCommand } from '../protocol';
import { refPrefix } from '../refs';
import { walkSnapshot } from '../snapshot';

/** How long a parent waits for its child frames' introductions before walking without them. */
export const HANDSHAKE_WAIT_MS = 750;

export async function runSnapshot(command: z.output<typeof SnapshotCommand>, env: PageEnv) {
  const { frameId, nonce } = command;
  const refs = env.refs(frameId);
  if (refs.prefix !== refPrefix(frameId))
    throw new PageError('This document answered for another frame. Call snapshot again.', 'frame-changed');
  refs.startAt(command.refBase);
  if (nonce) {
    // Children introduce themselves while we wait, so each iframe element can be matched to its frame.
    env.frames.announce(nonce, frameId);
    if (command.childFrames?.length) await env.frames.awaitFrames(nonce, command.childFrames, HANDSHAKE_WAIT_MS);
  }
  const root = env.queryRoot(frameId === 0 ? command.selector : undefined);
  const { lines, frames, frameElements } = walkSnapshot(root, {
    refs,
    frameInside: nonce ? (element) => env.frames.frameIn(element, nonce) : undefined,
    ...(command.targets?.length ? { targets: command.targets } : {}),
  });
  if (nonce && frameElements.length)
    env.frames.rememberSlots(
      nonce,
      frames.map((slot) => slot.line),
      frameElements,
    );
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

/** Second step of a top-frame snapshot that found iframes: match them once the children have spoken. */
export async function runFrameSlots(command: z.output<typeof FrameSlotsCommand>, env: PageEnv) {
  if (command.childFrames.length) await env.frames.awaitFrames(command.nonce, command.childFrames, HANDSHAKE_WAIT_MS);
  return { frames: env.frames.slotsOf(command.nonce) };
}
