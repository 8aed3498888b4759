/**
 * Tells the user why an agent is not connected, in words. A browser reports every failed
 * WebSocket handshake the same way, so after a failure before open the broker's HTTP address is
 * fetched: an answer means the broker is there and refused us (authentication), no answer means
 * nothing is listening (unreachable).
 */
import { httpUrlFor } from './broker-url';
import type { SocketObservation } from './socket-observer';

export type FailureKind = 'auth_failed' | 'unreachable' | 'closed' | 'protocol' | 'needs_signin' | 'refused';

export interface Failure {
  kind: FailureKind;
  detail: string;
}

export type ReachabilityProbe = (httpUrl: string) => Promise<void>;

/** The browser's way to ask "is anything there?" without needing CORS from the broker. */
export const fetchProbe: ReachabilityProbe = async (httpUrl) => {
  await fetch(httpUrl, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: AbortSignal.timeout(5_000) });
};

export async function classifyFailure(
  wsUrl: string,
  observation: SocketObservation,
  probe: ReachabilityProbe,
): Promise<Failure> {
  if (observation.opened) {
    if (observation.protocol !== 'acp.v1') {
      return {
        kind: 'protocol',
        detail: `the broker did not accept the acp.v1 subprotocol (it chose "${observation.protocol || 'none'}")`,
      };
    }
    const code = observation.closeCode ?? 1006;
    const reason = observation.closeReason ? `, ${observation.closeReason}` : '';
    return { kind: 'closed', detail: `closed by broker (${code}${reason})` };
  }
  try {
    await probe(httpUrlFor(wsUrl));
    return {
      kind: 'auth_failed',
      detail: 'authentication failed: the broker refused the connection (check the token)',
    };
  } catch {
    return { kind: 'unreachable', detail: `unreachable: nothing answered at ${wsUrl}` };
  }
}
