/**
 * Stored settings, validated with zod and versioned. Older shapes are migrated forward, never
 * dropped; a value that cannot be read is reported, not silently replaced. Tokens are not here:
 * they live under their own keys in `chrome.storage.local` only.
 */
import { z } from 'zod';
import { BlockEntry } from './block-entry';

export const SETTINGS_VERSION = 5;

export const Dialect = z.enum(['both', 'a', 'b']);
export type Dialect = z.infer<typeof Dialect>;

export const AgentProfile = z.object({
  id: z.string().min(1),
  name: z.string().min(1).max(64),
  url: z.string().min(1),
  /** Declared name of the browser-tools MCP server (operators allowlist it). */
  serverName: z
    .string()
    .regex(/^[A-Za-z][\w-]{0,31}$/)
    .default('tabwright'),
  dialect: Dialect.default('both'),
  browserAccess: z.boolean().default(true),
  enabled: z.boolean().default(true),
  /** The user accepted sending the token over plain ws:// to another machine. */
  acceptInsecureToken: z.boolean().default(false),
  /** Persistent server ids (uuid per declared server), so ids survive reconnects. */
  serverIds: z.record(z.string(), z.string()).default({}),
  /** Namespaces (server names) this agent is not offered. */
  hiddenServers: z.array(z.string()).default([]),
  /**
   * The agent works in whatever tab the person has in front, as before agents had tabs of their
   * own; off, it works only in its own tabs (ones it opened, ones the person shared with it).
   */
  followCurrentTab: z.boolean().default(false),
});
export type AgentProfile = z.infer<typeof AgentProfile>;

/** One connector's settings: whether it is on, and the sites (base URLs) the user added for it. */
export const ConnectorSettings = z.object({
  enabled: z.boolean().default(false),
  sites: z.array(z.string()).default([]),
});
export type ConnectorSettings = z.infer<typeof ConnectorSettings>;

export const Settings = z.object({
  version: z.literal(SETTINGS_VERSION),
  agents: z.array(AgentProfile).default([]),
  actMode: z.boolean().default(false),
  allowedSites: z.array(z.string()).default([]),
  screenshots: z.boolean().default(false),
  roomMode: z.enum(['mention', 'ambient']).default('mention'),
  loopGuardCap: z.number().int().min(1).max(100).default(6),
  confirmationTimeoutSec: z.number().int().min(5).max(3600).default(120),
  /** The user's changes to the shipped high-risk blocklist: removed entry ids and entries of their own. */
  blocklist: z
    .object({ removed: z.array(z.string()).default([]), custom: z.array(BlockEntry).default([]) })
    .default({ removed: [], custom: [] }),
  /** Connectors by id (built-in and imported recipes). */
  connectors: z.record(z.string(), ConnectorSettings).default({}),
  connectorHealthMinutes: z.number().int().min(1).max(1440).default(10),
  /** Actions say which downloads they started, and the `downloads` tool lists them (needs Chrome's grant). */
  reportDownloads: z.boolean().default(false),
  /** When reporting was turned on: downloads that started earlier are never shown. */
  downloadsSince: z.number().int().nonnegative().optional(),
  /** Tabs an agent works in join a tab group named after it. */
  agentTabGroups: z.boolean().default(true),
  /** While an action runs, the page shows an outline naming the agent. */
  agentOutline: z.boolean().default(true),
  /** Allowed sites whose page-declared tools (WebMCP) the user offers to agents; none until turned on. */
  pageToolSites: z.array(z.string()).default([]),
});
export type Settings = z.infer<typeof Settings>;

export function defaultSettings(): Settings {
  return Settings.parse({ version: SETTINGS_VERSION });
}

type Migration = (old: Record<string, unknown>) => Record<string, unknown>;

/** migrations[n] turns version n into version n + 1. */
const migrations: Record<number, Migration> = {
  // Version 0: the unversioned shape, same fields.
  0: (old) => ({ ...old, version: 1 }),
  // Version 2 adds the user's blocklist changes; nobody had any before.
  1: (old) => ({ ...old, version: 2, blocklist: { removed: [], custom: [] } }),
  // Version 3 adds connectors, all off until the user turns one on.
  2: (old) => ({ ...old, version: 3, connectors: {}, connectorHealthMinutes: 10 }),
  // Version 4 adds what the user sees while an agent works: groups and outlines on, download reports off.
  3: (old) => ({ ...old, version: 4, reportDownloads: false, agentTabGroups: true, agentOutline: true }),
  // Version 5 gives agents tabs of their own; agents saved before keep following the person's tab.
  4: (old) => ({
    ...old,
    version: 5,
    agents: Array.isArray(old.agents)
      ? old.agents.map((agent: unknown) =>
          agent && typeof agent === 'object' ? { ...(agent as object), followCurrentTab: true } : agent,
        )
      : old.agents,
  }),
};

export type LoadedSettings = { settings: Settings; migratedFrom?: number; problem?: string };

export function loadSettings(stored: unknown): LoadedSettings {
  if (stored === undefined || stored === null) return { settings: defaultSettings() };
  if (typeof stored !== 'object' || Array.isArray(stored)) {
    return { settings: defaultSettings(), problem: 'The stored settings were not an object; defaults are in use.' };
  }
  let value = stored as Record<string, unknown>;
  const from = typeof value.version === 'number' ? value.version : 0;
  if (from > SETTINGS_VERSION) {
    return {
      settings: defaultSettings(),
      problem: `Settings come from a newer Tabwright (version ${from}); defaults are in use.`,
    };
  }
  for (let version = from; version < SETTINGS_VERSION; version++) value = migrations[version]!(value);
  const parsed = Settings.safeParse(value);
  if (!parsed.success) {
    return {
      settings: defaultSettings(),
      problem: `Stored settings could not be read (${parsed.error.issues[0]?.message ?? 'invalid'}); defaults are in use.`,
    };
  }
  return { settings: parsed.data, ...(from !== SETTINGS_VERSION ? { migratedFrom: from } : {}) };
}
