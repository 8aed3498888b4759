/**
 * What each agent is offered: browser access at all (browser tools and connectors alike), and
 * which of the panel's servers (namespaces) it is declared. OpenAB caps the declared acp servers
 * per session, so past that the rest are not declared, and the user is told which.
 */
import { MAX_DECLARED_SERVERS } from '../../contract/acp';

export { MAX_DECLARED_SERVERS };

export interface ExposureProfile {
  browserAccess: boolean;
  hiddenServers: readonly string[];
}

export interface Exposure {
  /** Declared at session start, in order. */
  declared: string[];
  /** The user chose not to offer these. */
  hidden: string[];
  /** Wanted, but past the per-session limit. */
  overLimit: string[];
}

export function exposureOf(profile: ExposureProfile, candidates: readonly string[]): Exposure {
  if (!profile.browserAccess) return { declared: [], hidden: [...candidates], overLimit: [] };
  const wanted = candidates.filter((name) => !profile.hiddenServers.includes(name));
  return {
    declared: wanted.slice(0, MAX_DECLARED_SERVERS),
    hidden: candidates.filter((name) => profile.hiddenServers.includes(name)),
    overLimit: wanted.slice(MAX_DECLARED_SERVERS),
  };
}

/** Whether calls to `server` may run for this agent now (checked on every call, so turning access off is immediate). */
export function isOffered(profile: ExposureProfile, server: string, candidates: readonly string[]): boolean {
  return exposureOf(profile, candidates).declared.includes(server);
}
