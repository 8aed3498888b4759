/**
 * The high-risk blocklist: named entries (a bank, a cloud console, a password manager…) whose
 * rules are matched by registrable domain and path. A rule `paypal.com` covers the domain and
 * every subdomain; `console.aws.amazon.com` covers that host and below it, not the rest of
 * amazon.com; `github.com/settings` covers that path and everything under it. Scheme and port
 * never matter: a blocked site stays blocked on every port, over http and https alike.
 */
import { parse } from 'tldts';
import { z } from 'zod';
import { BlockEntry } from '../../shared/block-entry';
import shipped from './blocklist.json' with { type: 'json' };

export const BlocklistFile = z.object({ version: z.literal(1), entries: z.array(BlockEntry) });

/** The entries Tabwright ships, validated once. */
export const SHIPPED_BLOCKLIST: readonly BlockEntry[] = BlocklistFile.parse(shipped).entries;

export interface BlockRule {
  /** Lower-case ASCII (punycode) host, no trailing dot, no port. */
  host: string;
  /** Normalised path prefix, '' for the whole host. */
  path: string;
  /** Index key: the registrable domain, or the bare host for IP addresses and single-label hosts. */
  key: string;
}

const tldOptions = { allowPrivateDomains: true } as const;

/** Host as a browser would send it: lower case, IDN in punycode, no trailing dot. */
export function normaliseHost(host: string): string | undefined {
  try {
    const url = new URL(`http://${host}/`);
    const name = url.hostname.replace(/\.+$/, '');
    return name || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Path compared case-insensitively with percent-escapes decoded and repeated slashes collapsed:
 * `/%73ettings`, `/Settings` and `//settings` all reach the same page on many servers.
 */
export function normalisePath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // A stray '%' stays as it is.
  }
  const collapsed = decoded.toLowerCase().replace(/\/{2,}/g, '/');
  const withSlash = collapsed.startsWith('/') ? collapsed : `/${collapsed}`;
  return withSlash.replace(/\/+$/, '');
}

function indexKey(host: string): string {
  const info = parse(host, tldOptions);
  return info.isIp || !info.domain ? host : info.domain;
}

export type RuleParse = { ok: true; rule: BlockRule } | { ok: false; problem: string };

/** Reads one rule as a user or the data file writes it: `host`, `host/path`, or a URL. */
export function parseRule(text: string): RuleParse {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, problem: 'Enter a domain, optionally with a path, like bank.example/settings.' };
  const withoutScheme = trimmed.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/^\*\./, '');
  let url: URL;
  try {
    url = new URL(`http://${withoutScheme}`);
  } catch {
    return { ok: false, problem: `${trimmed} is not a domain or a URL.` };
  }
  const host = normaliseHost(url.hostname);
  if (!host) return { ok: false, problem: `${trimmed} has no host.` };
  const info = parse(host, tldOptions);
  const knownSuffix = info.publicSuffix === host && (info.isIcann || info.isPrivate);
  if (!info.isIp && !info.domain && (host.includes('.') || knownSuffix)) {
    return {
      ok: false,
      problem: `${host} is a public suffix shared by unrelated sites; enter a domain under it, like bank.${host}.`,
    };
  }
  return { ok: true, rule: { host, path: normalisePath(url.pathname), key: indexKey(host) } };
}

function hostCovers(ruleHost: string, host: string): boolean {
  return host === ruleHost || host.endsWith(`.${ruleHost}`);
}

function pathCovers(rulePath: string, path: string): boolean {
  return rulePath === '' || path === rulePath || path.startsWith(`${rulePath}/`);
}

export interface BlockMatch {
  entry: BlockEntry;
  rule: string;
}

export class Blocklist {
  readonly #byKey = new Map<string, Array<{ rule: BlockRule; text: string; entry: BlockEntry }>>();
  /** Rules that could not be read (only user entries can have them; shipped ones are tested). */
  readonly problems: string[] = [];

  constructor(readonly entries: readonly BlockEntry[]) {
    for (const entry of entries) {
      for (const text of entry.match) {
        const parsed = parseRule(text);
        if (!parsed.ok) {
          this.problems.push(`${entry.name}: ${parsed.problem}`);
          continue;
        }
        const bucket = this.#byKey.get(parsed.rule.key) ?? [];
        bucket.push({ rule: parsed.rule, text, entry });
        this.#byKey.set(parsed.rule.key, bucket);
      }
    }
  }

  /** The entry blocking this URL, if any. Non-http(s) URLs are never "blocked": the origin gate refuses them anyway. */
  match(url: string): BlockMatch | undefined {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return undefined;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
    const host = normaliseHost(parsed.hostname);
    if (!host) return undefined;
    const candidates = this.#byKey.get(indexKey(host));
    if (!candidates) return undefined;
    const path = normalisePath(parsed.pathname);
    for (const { rule, text, entry } of candidates) {
      if (hostCovers(rule.host, host) && pathCovers(rule.path, path)) return { entry, rule: text };
    }
    return undefined;
  }
}

/** What the user changed: shipped entries they removed (by id) and entries of their own. */
export interface BlocklistChanges {
  removed: readonly string[];
  custom: readonly BlockEntry[];
}

/**
 * Shipped entries minus the removed ones, plus the user's. Removals are stored by id, so entries
 * added to the shipped file in a later version reach users who edited their list.
 */
export function effectiveBlocklist(changes: BlocklistChanges, base: readonly BlockEntry[] = SHIPPED_BLOCKLIST) {
  const removed = new Set(changes.removed);
  return [...base.filter((entry) => !removed.has(entry.id)), ...changes.custom];
}

/** A user entry for one rule, named after it. */
export function customEntry(text: string, existingIds: ReadonlySet<string>): BlockEntry | string {
  const parsed = parseRule(text);
  if (!parsed.ok) return parsed.problem;
  const name = parsed.rule.host + (parsed.rule.path || '');
  let id = `custom:${name}`;
  for (let n = 2; existingIds.has(id); n++) id = `custom:${name}#${n}`;
  return { id, name, category: 'custom', match: [name] };
}
