/**
 * An organisation's managed policy (Chrome enterprise policy for extensions, read from
 * `chrome.storage.managed`) and what it does to the person's settings. Policy only narrows: the
 * sites agents may reach are the person's list within the policy's, its blocked sites join the
 * blocklist, a feature it turns off is off, and act mode it locks off stays off. With no policy
 * everything is exactly as the person set it. Each key is read on its own, so one bad value does
 * not void the rest; Chrome itself drops values that fail `public/managed-schema.json`. Pure.
 */
import { z } from 'zod';
import type { BlockEntry } from './block-entry';
import type { Settings } from './settings';

const Feature = z.boolean();

/** Every key an organisation can set; the names are what goes into the policy file. */
const Keys = {
  AllowedSites: z.array(z.string().min(1)),
  BlockedSites: z.array(z.string().min(1)),
  AllowedBrokers: z.array(z.string().min(1)),
  BrokerOffers: z.array(
    z.object({
      broker: z.string().min(1),
      browserTools: z.array(z.string()).optional(),
      connectors: z.array(z.string()).optional(),
      pageTools: z.boolean().optional(),
    }),
  ),
  ActModeLockedOff: z.boolean(),
  AlwaysConfirm: z.boolean(),
  ConfirmationTimeoutSeconds: z.number().int().min(5).max(3600),
  Screenshots: Feature,
  ReportDownloads: Feature,
  PageTools: Feature,
  RecipeImport: Feature,
  FollowCurrentTab: Feature,
  AuditRetention: z.number().int().min(100).max(100_000),
  /** Checked for https (or loopback http) where it is used: a refused URL is shown with its reason, not dropped. */
  AuditForwarding: z.object({
    url: z.string().min(1),
    token: z.string().min(1),
    batchSize: z.number().int().min(1).max(1000).optional(),
  }),
} as const;

export type PolicyKey = keyof typeof Keys;
export const POLICY_KEYS = Object.keys(Keys) as PolicyKey[];

export type Policy = { [K in PolicyKey]?: z.infer<(typeof Keys)[K]> };

export interface ReadPolicy {
  policy: Policy;
  /** Keys the panel read and uses. */
  read: PolicyKey[];
  /** Keys present but not used: unknown names, or values of the wrong shape. */
  ignored: string[];
}

export const NO_POLICY: ReadPolicy = { policy: {}, read: [], ignored: [] };

/** Reads what `chrome.storage.managed.get()` answered, key by key. */
export function readPolicy(raw: unknown): ReadPolicy {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return NO_POLICY;
  const policy: Record<string, unknown> = {};
  const read: PolicyKey[] = [];
  const ignored: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    const schema = (Keys as Record<string, z.ZodType>)[key];
    const parsed = schema?.safeParse(value);
    if (!parsed?.success) {
      ignored.push(key);
      continue;
    }
    policy[key] = parsed.data;
    read.push(key as PolicyKey);
  }
  return { policy: policy as Policy, read, ignored };
}

const escape = (text: string) => text.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** A pattern with `*` standing for any run of characters, matched against the whole text. */
function glob(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map(escape).join('.*')}$`, 'i');
}

/**
 * Whether a site's origin is within one of the policy's site patterns: an origin
 * (`https://app.example.com` — port 443 only; `http://127.0.0.1:8090`), a host
 * (`app.example.com`: any scheme and port), or a domain and every host under it
 * (`*.example.com`), optionally with a scheme and a port (`https://*.example.com:8443`; `:*`
 * for any port).
 */
export function siteMatches(origin: string, pattern: string): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  const match = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*\.)?([^/:]+)(?::(\d+|\*))?\/?$/i.exec(pattern.trim());
  if (!match) return false;
  const [, scheme, anySub, host, port] = match;
  if (scheme && `${scheme.toLowerCase()}:` !== url.protocol) return false;
  const hostname = url.hostname.toLowerCase();
  const wanted = host!.toLowerCase();
  if (!(hostname === wanted || (anySub && hostname.endsWith(`.${wanted}`)))) return false;
  if (port === '*') return true;
  // An origin names its port, the scheme's own when none is written; a bare host takes any.
  if (port === undefined) return !scheme || url.port === '';
  return (url.port || (url.protocol === 'https:' ? '443' : '80')) === port;
}

/** Whether the policy lets agents reach `origin`: always when it sets no site list. */
export function policyAllowsSite(policy: Policy, origin: string): boolean {
  return !policy.AllowedSites || policy.AllowedSites.some((pattern) => siteMatches(origin, pattern));
}

/** Whether the panel may connect to the broker at `url`: always when the policy names no brokers. */
export function brokerAllowed(policy: Policy, url: string): boolean {
  return !policy.AllowedBrokers || policy.AllowedBrokers.some((pattern) => glob(pattern.trim()).test(url.trim()));
}

/** What agents behind the broker at `url` may be offered; `undefined` parts are not limited. */
export interface BrokerOffer {
  browserTools?: ReadonlySet<string>;
  connectors?: ReadonlySet<string>;
  pageTools?: boolean;
}

export function brokerOffer(policy: Policy, url: string): BrokerOffer {
  const rule = policy.BrokerOffers?.find((offer) => glob(offer.broker.trim()).test(url.trim()));
  const pageTools = policy.PageTools === false ? false : rule?.pageTools;
  return {
    ...(rule?.browserTools ? { browserTools: new Set(rule.browserTools) } : {}),
    ...(rule?.connectors ? { connectors: new Set(rule.connectors) } : {}),
    ...(pageTools !== undefined ? { pageTools } : {}),
  };
}

/**
 * Whether an agent behind the broker at `url` may be offered the server `key` (`connector:<id>`,
 * `page:<origin>`; the browser tools are limited tool by tool instead).
 */
export function policyOffersServer(policy: Policy, url: string, key: string): boolean {
  const offer = brokerOffer(policy, url);
  if (key.startsWith('connector:')) return offer.connectors?.has(key.slice('connector:'.length)) ?? true;
  if (key.startsWith('page:')) return offer.pageTools !== false;
  return true;
}

/** Whether the browser tool `name` (bare, or `<server>.<tool>` as listed) may be offered behind `url`. */
export function policyOffersTool(policy: Policy, url: string, name: string): boolean {
  const tools = brokerOffer(policy, url).browserTools;
  return !tools || tools.has(name) || tools.has(name.slice(name.indexOf('.') + 1));
}

/** The policy's blocked sites as blocklist entries, which the person cannot remove. */
export function policyBlockEntries(policy: Policy): BlockEntry[] {
  return (policy.BlockedSites ?? []).map((site, i) => ({
    id: `policy:${i}:${site}`,
    name: site,
    category: 'custom',
    match: [site],
  }));
}

/** Settings a policy key sets or narrows, for Settings to show as set by the organisation. */
export const LOCKS = {
  actMode: 'ActModeLockedOff',
  screenshots: 'Screenshots',
  reportDownloads: 'ReportDownloads',
  pageToolSites: 'PageTools',
  followCurrentTab: 'FollowCurrentTab',
  confirmationTimeoutSec: 'ConfirmationTimeoutSeconds',
  allowedSites: 'AllowedSites',
} as const satisfies Record<string, PolicyKey>;

export type LockedSetting = keyof typeof LOCKS;

/** Whether the policy decides this setting (the person cannot change it). */
export function isLocked(policy: Policy, setting: LockedSetting): boolean {
  const key = LOCKS[setting];
  if (key === 'ActModeLockedOff') return policy.ActModeLockedOff === true;
  if (key === 'AllowedSites') return false;
  if (key === 'ConfirmationTimeoutSeconds') return policy.ConfirmationTimeoutSeconds !== undefined;
  return policy[key] === false;
}

/** The settings the gates and the panel act on: the person's, narrowed by the policy. */
export function effectiveSettings(settings: Settings, policy: Policy): Settings {
  if (!Object.keys(policy).length) return settings;
  return {
    ...settings,
    actMode: policy.ActModeLockedOff ? false : settings.actMode,
    allowedSites: settings.allowedSites.filter((site) => policyAllowsSite(policy, site)),
    screenshots: policy.Screenshots === false ? false : settings.screenshots,
    reportDownloads: policy.ReportDownloads === false ? false : settings.reportDownloads,
    pageToolSites: policy.PageTools === false ? [] : settings.pageToolSites,
    confirmationTimeoutSec: policy.ConfirmationTimeoutSeconds ?? settings.confirmationTimeoutSec,
    agents:
      policy.FollowCurrentTab === false
        ? settings.agents.map((agent) => ({ ...agent, followCurrentTab: false }))
        : settings.agents,
    blocklist: {
      ...settings.blocklist,
      custom: [...settings.blocklist.custom, ...policyBlockEntries(policy)],
    },
  };
}
