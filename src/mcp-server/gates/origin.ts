/**
 * The origin gate's decision: only http(s), only sites on Tabwright's allowed list that Chrome
 * has also granted, and never a site on the high-risk blocklist (even if allowed).
 */

export interface OriginFacts {
  allowedSites: readonly string[];
  /** Whether Chrome holds the host permission for this origin. */
  chromeGranted: boolean;
  /** Name of the blocklist entry matching the URL, if any. */
  blockedBy: string | undefined;
  /** The entry's rule that matched (`bank.example/settings`), so a refusal names the path it covers. */
  blockedRule?: string | undefined;
  /** The organisation's policy leaves this origin out: no one in the panel can allow it. */
  outsidePolicy?: boolean;
}

/** Normalises what a user types ("example.com", "https://example.com/path") to an origin. */
export function normaliseSite(input: string): string | undefined {
  const text = input.trim();
  if (!text) return undefined;
  // Without a scheme, loopback hosts are almost always local http servers; everything else gets https.
  const loopback = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?(?:\/|$)/i.test(text);
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `${loopback ? 'http' : 'https'}://${text}`;
  try {
    const url = new URL(withScheme);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    if (!url.hostname) return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

export function siteOrigin(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}

/** The origin of a URL for display, grants and page-text labels: http(s) origins as such, anything else by scheme. */
export function originOf(url: string | undefined): string {
  if (!url) return '';
  const origin = siteOrigin(url);
  if (origin) return origin;
  try {
    return `${new URL(url).protocol}//`;
  } catch {
    return '';
  }
}

export function originRefusal(url: string | undefined, facts: OriginFacts): string | undefined {
  const origin = siteOrigin(url);
  if (!origin) return 'Refused: Tabwright only works on http(s) pages.';
  if (facts.blockedBy) {
    const rule = facts.blockedRule;
    // A rule with a path blocks part of a site: name that part, not the whole origin.
    if (rule?.includes('/')) {
      const page = `${origin}${new URL(url!).pathname}`;
      return `Refused: ${page} is under ${rule}, on the high-risk blocklist (${facts.blockedBy}). Tabwright never acts there; do not retry. The rest of ${origin} is not covered by this rule.`;
    }
    return `Refused: ${origin} is on the high-risk blocklist (${facts.blockedBy}). Tabwright never acts there; do not retry.`;
  }
  if (facts.outsidePolicy) {
    return `Refused: ${origin} is outside the sites your organisation allows. Nobody can allow it in Tabwright; do not retry.`;
  }
  if (!facts.allowedSites.includes(origin)) {
    return `Refused: ${origin} is not an allowed site. Only the user can allow it, in Tabwright settings; ask them.`;
  }
  if (!facts.chromeGranted) {
    return `Refused: ${origin} is allowed in Tabwright but Chrome has not granted access to it. Ask the user to allow the site again in Tabwright settings.`;
  }
  return undefined;
}
