/**
 * The change a person could make so that a call the gates refused goes through next time: allow
 * the site, turn act mode on, share the tab in front. Only refusals that come from the person's
 * own settings have one: a blocklisted site, a page that is not http(s), a setting an organisation
 * has locked, and a site its policy keeps out never get a fix. Pure: the panel supplies the facts and performs the fix.
 */
import { siteOrigin } from '../mcp-server/gates/origin';
import type { RefusalNotice } from '../mcp-server/gates/types';

export type GateFix =
  | { kind: 'allow-site'; origin: string }
  | { kind: 'act-mode' }
  /** The tab in front goes to the caller; `callerName`: how the panel names it (an agent, or a client through it). */
  | { kind: 'share-tab'; callerId: string; callerName: string };

/** The settings a fix changes; one locked (by an organisation) is never offered as a fix. */
export type FixableSetting = 'actMode' | 'allowedSites' | 'tabSharing';

export interface FixFacts {
  /** The blocklist entry that matches `url`, if any. */
  blockedBy(url: string): string | undefined;
  /** How the panel names `callerId` when the tab in front can be shared with it. */
  shareable(callerId: string): string | undefined;
  locked?(setting: FixableSetting): boolean;
  /** Whether the organisation lets agents reach `origin` at all (always, without a policy). */
  policyAllows?(origin: string): boolean;
}

export function fixFor(notice: RefusalNotice, facts: FixFacts): GateFix | undefined {
  const locked = (setting: FixableSetting) => facts.locked?.(setting) ?? false;
  switch (notice.gate) {
    case 'act-mode':
      return locked('actMode') ? undefined : { kind: 'act-mode' };
    case 'origin': {
      const origin = siteOrigin(notice.url);
      if (!origin || !notice.url || locked('allowedSites')) return undefined;
      if (facts.policyAllows && !facts.policyAllows(origin)) return undefined;
      if (facts.blockedBy(notice.url) !== undefined || facts.blockedBy(`${origin}/`) !== undefined) return undefined;
      return { kind: 'allow-site', origin };
    }
    case 'target': {
      if (locked('tabSharing')) return undefined;
      const name = facts.shareable(notice.callerId);
      return name === undefined ? undefined : { kind: 'share-tab', callerId: notice.callerId, callerName: name };
    }
    default:
      return undefined;
  }
}

/** Two fixes that make the same change: one card is enough while it waits. */
export function sameFix(a: GateFix, b: GateFix): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** How a site is named on its fix's button: its host, with the port when it has one. */
export function siteLabel(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}
