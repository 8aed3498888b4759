/**
 * Tells the user why an agent is not connected, in words. A browser reports every failed
 * WebSocket handshake the same way and never shows the HTTP answer, so Tabwright's broker refuses
 * an extension by accepting the upgrade and closing it at once with a close code and reason
 * (src/contract/refusals.ts): wrong token, extension not admitted, wrong path. Other brokers (OpenAB)
 * refuse over HTTP; then the panel can only tell whether anything answers at the address: the
 * broker's HTTP address is fetched without credentials, and an answer means a server is there and
 * turned the socket away without saying why, no answer means nothing is listening.
 */
import { BEARER_PREFIX, httpUrlFor } from './broker-url';
import { extensionIdInReason, refusalOf } from '../contract/refusals';
import type { SocketObservation } from './socket-observer';

export type FailureKind =
  /** Our broker: the token is missing or wrong. */
  | 'auth_failed'
  /** Our broker: this extension's id is not admitted (`--extension-id`). */
  | 'not_admitted'
  /** Our broker: the URL's path is not `/acp`. */
  | 'wrong_path'
  /** A WebSocket server opened the socket but does not speak ACP's subprotocol. */
  | 'not_broker'
  /** Something answers at the address but turned the socket away without saying why. */
  | 'rejected'
  /** Nothing answers at the address. */
  | 'unreachable'
  | 'closed'
  | 'needs_signin'
  | 'refused';

export interface Failure {
  kind: FailureKind;
  detail: string;
  /** For `not_admitted`: the id the broker names, to start it with `--extension-id`. */
  extensionId?: string;
}

export type ReachabilityProbe = (httpUrl: string) => Promise<void>;

/** The browser's way to ask "is anything there?" without needing CORS from the broker. */
export const fetchProbe: ReachabilityProbe = async (httpUrl) => {
  await fetch(httpUrl, { mode: 'no-cors', cache: 'no-store', credentials: 'omit', signal: AbortSignal.timeout(5_000) });
};

/** What Tabwright's broker said in its close frame, when it turned the socket away; else undefined. */
export function brokerRefusal(wsUrl: string, observation: SocketObservation): Failure | undefined {
  const cause = refusalOf(observation.closeCode);
  if (!observation.opened || cause === undefined) return undefined;
  const said = observation.closeReason ? ` (${observation.closeReason})` : '';
  switch (cause) {
    case 'wrongToken':
      return { kind: 'auth_failed', detail: `wrong token: the broker refused the token${said}` };
    case 'wrongPath':
      return { kind: 'wrong_path', detail: `wrong path: ${wsUrl} is a Tabwright broker, which serves /acp` };
    case 'notAdmitted': {
      const extensionId = extensionIdInReason(observation.closeReason);
      return {
        kind: 'not_admitted',
        detail: `extension not admitted: the broker does not admit this extension${said}`,
        ...(extensionId ? { extensionId } : {}),
      };
    }
  }
}

/** The subprotocol a server chose, for the user; one that carries the token is never repeated. */
function chosenProtocol(protocol: string): string {
  if (!protocol) return 'none';
  return protocol.startsWith(BEARER_PREFIX) ? 'the token’s own' : `"${protocol}"`;
}

export async function classifyFailure(
  wsUrl: string,
  observation: SocketObservation,
  probe: ReachabilityProbe,
): Promise<Failure> {
  const told = brokerRefusal(wsUrl, observation);
  if (told) return told;
  if (observation.opened) {
    if (observation.protocol !== 'acp.v1') {
      return {
        kind: 'not_broker',
        detail: `not an ACP broker: ${wsUrl} did not accept the acp.v1 subprotocol (it chose ${chosenProtocol(observation.protocol)})`,
      };
    }
    const code = observation.closeCode ?? 1006;
    const reason = observation.closeReason ? `, ${observation.closeReason}` : '';
    return { kind: 'closed', detail: `closed by broker (${code}${reason})` };
  }
  try {
    await probe(httpUrlFor(wsUrl));
    return {
      kind: 'rejected',
      detail: `refused without a reason: a server answers at ${wsUrl} but turned the connection away`,
    };
  } catch {
    return { kind: 'unreachable', detail: `nothing listening at ${wsUrl}: is the broker running?` };
  }
}
