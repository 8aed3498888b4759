/** What the person is shown about forwarding: where to, how much waits, when it last went out. Pure. */
import { stateFor, type SendProblem, type StoredForwarding } from './forwarder';
import { waitingCount } from './plan';
import type { CollectorProblem, ForwardTarget } from './target';

export type ForwardStatus =
  | { kind: 'off' }
  | { kind: 'refused'; url: string; reason: CollectorProblem }
  | { kind: 'on'; origin: string; waiting: number; lastSentAt?: number; lastError?: SendProblem | string };

export function forwardStatus(target: ForwardTarget, stored: StoredForwarding): ForwardStatus {
  if (!target.on)
    return 'refused' in target ? { kind: 'refused', url: target.url, reason: target.refused } : { kind: 'off' };
  const state = stateFor(target.url, stored.state);
  return {
    kind: 'on',
    origin: target.origin,
    waiting: waitingCount(stored.entries, stored.checkpoint, state.cursor),
    ...(state.lastSentAt !== undefined ? { lastSentAt: state.lastSentAt } : {}),
    ...(state.lastError !== undefined ? { lastError: state.lastError } : {}),
  };
}
