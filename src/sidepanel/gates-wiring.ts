/**
 * Everything the panel needs for the gates, built in one place: the kill switch (persisted), the
 * audit log (merged across windows), secret values, the confirmation tray, the gate environment,
 * what each agent is offered, and the Settings and audit views' actions. `panel.ts` calls this
 * and hooks the results into its own structure.
 */
import { customEntry, effectiveBlocklist, SHIPPED_BLOCKLIST } from '../mcp-server/gates/blocklist';
import { SessionGrants } from '../mcp-server/gates/call-gate';
import { exposureOf, isOffered } from '../mcp-server/gates/exposure';
import { KillSwitch } from '../mcp-server/gates/kill-switch';
import type { GateEnvironment } from '../mcp-server/gates/types';
import type { ToolServer } from '../mcp-server/mcp-core';
import { AuditLog } from '../shared/audit-log';
import { SecretValueStore } from '../shared/secret-values';
import type { AgentProfile, Settings } from '../shared/settings';
import type { StorageArea } from '../shared/stores';
import { h } from './dom';
import {
  blocklistFor,
  chromeHasAllUrls,
  chromeHasHostPermission,
  createPanelGates,
  persistKillSwitch,
  releaseAllUrls,
  releaseHostPermission,
  requestAllUrls,
  requestHostPermission,
  watchStoredKillSwitch,
} from './panel-gates';
import { auditView } from './views/audit';
import { PromptTray } from './views/confirmations';
import { killSwitchBanner } from './views/kill-switch';
import type { SettingsActions } from './views/settings';

export interface GatesWiringOptions {
  local: StorageArea;
  settings(): Settings;
  saveSettings(next: Settings): Promise<void>;
  promptsRoot: HTMLElement;
  /** Names of every server the panel could offer this agent (browser tools, connectors), in declaration order. */
  candidates(profile: AgentProfile): string[];
}

/** What the panel supplies to the Settings view besides the gates' own parts. */
export interface SettingsHost {
  agentsSection(): HTMLElement;
  /** Re-creates the agent's connection with its current profile, so new declarations take effect. */
  reconnect(agentId: string): void;
  openAudit(): void;
  /** A setting changed (e.g. act mode): the roster's badges follow it. */
  changed?(): void;
}

/** The Web Locks API serialises audit writes across every panel of the extension. */
const exclusive = <T>(work: () => Promise<T>): Promise<T> =>
  globalThis.navigator?.locks ? (navigator.locks.request('tabwright-audit', work) as Promise<T>) : work();

function saveFile(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'application/jsonl' }));
  const link = h('a', { href: url, download: fileName, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export async function wireGates(o: GatesWiringOptions) {
  const killSwitch = new KillSwitch();
  await persistKillSwitch(killSwitch, o.local);
  const audit = new AuditLog(o.local, { exclusive });
  await audit.load();
  const secrets = new SecretValueStore(o.local);
  await secrets.load();
  const tray = new PromptTray(o.promptsRoot);
  const grants = new SessionGrants();
  const gates: GateEnvironment = createPanelGates({
    settings: o.settings,
    killed: () => killSwitch.engaged,
    confirmations: { ask: (request, timeoutMs, signal) => tray.confirm(request, timeoutMs, signal) },
    audit: (entry) => audit.append(entry),
    secretValues: () => secrets.values,
    hasHostPermission: chromeHasHostPermission,
    hasAllUrls: chromeHasAllUrls,
  });
  const blocklist = blocklistFor(o.settings);
  const declaredNow = new Map<string, string[]>();
  const profileOf = (agentId: string) => o.settings().agents.find((agent) => agent.id === agentId);
  const candidates = (profile: AgentProfile) => o.candidates(profile);

  let onSaved: (() => void) | undefined;
  const save = async (next: Settings) => {
    await o.saveSettings(next);
    onSaved?.();
  };
  const updateAgent = (agentId: string, change: (profile: AgentProfile) => AgentProfile) => {
    const settings = o.settings();
    return save({ ...settings, agents: settings.agents.map((a) => (a.id === agentId ? change(a) : a)) });
  };
  const updateBlocklist = (change: (list: Settings['blocklist']) => Settings['blocklist']) => {
    const settings = o.settings();
    return save({ ...settings, blocklist: change(settings.blocklist) });
  };

  return {
    killSwitch,
    audit,
    secrets,
    tray,
    grants,
    gates,

    /** The servers declared for this agent now: exposure applied, at most 8. */
    declare<T extends { server: ToolServer }>(profile: AgentProfile, servers: T[]): T[] {
      // The hub hands over the profile it was started with; what the user set since wins.
      const live = profileOf(profile.id) ?? profile;
      const names = exposureOf(
        live,
        servers.map(({ server }) => server.name),
      ).declared;
      declaredNow.set(profile.id, names);
      return servers.filter(({ server }) => names.includes(server.name));
    },

    /** Read on every call: taking access away applies at once, without waiting for a new session. */
    exposedFor(agentId: string, server: string): () => boolean {
      return () => {
        const profile = profileOf(agentId);
        return profile !== undefined && isOffered(profile, server, candidates(profile));
      };
    },

    /** The kill switch was pulled here: withdraw waiting cards and forget "for this site" grants. */
    disconnected(): void {
      tray.withdrawAll();
      grants.clear();
    },

    /** Pulling the switch in another window's panel disconnects this one's agents too. */
    followOtherPanels(disconnectAll: () => void): void {
      watchStoredKillSwitch((engaged) => {
        if (engaged && !killSwitch.engaged) disconnectAll();
      });
    },

    banner(agents: () => Array<{ id: string; name: string }>, reconnect: (agentId: string) => void): HTMLElement {
      return killSwitchBanner({ killSwitch, agents, reconnect });
    },

    auditView(close: () => void): HTMLElement {
      return auditView({ log: audit, close, download: saveFile });
    },

    settingsActions(host: SettingsHost): SettingsActions {
      onSaved = host.changed;
      return {
        settings: o.settings,
        setActMode: (on) => save({ ...o.settings(), actMode: on }),
        setScreenshots: async (on) => {
          if (on) {
            if (!(await requestAllUrls())) return 'Chrome did not grant access to capture pages; screenshots stay off.';
          } else {
            await releaseAllUrls();
          }
          await save({ ...o.settings(), screenshots: on });
          return undefined;
        },
        setConfirmationTimeout: (seconds) => save({ ...o.settings(), confirmationTimeoutSec: seconds }),
        allowSite: async (origin) => {
          if (!(await requestHostPermission(origin))) return `Chrome did not grant access to ${origin}.`;
          const settings = o.settings();
          if (!settings.allowedSites.includes(origin)) {
            await save({ ...settings, allowedSites: [...settings.allowedSites, origin] });
          }
          return undefined;
        },
        removeSite: async (origin) => {
          const settings = o.settings();
          await save({ ...settings, allowedSites: settings.allowedSites.filter((s) => s !== origin) });
          await releaseHostPermission(origin);
        },
        siteGranted: chromeHasHostPermission,
        siteBlockedBy: (origin) => blocklist().match(`${origin}/`)?.entry.name,
        blocklist: {
          entries: () => effectiveBlocklist(o.settings().blocklist),
          removedCount: () => o.settings().blocklist.removed.length,
          add: async (rule) => {
            const list = o.settings().blocklist;
            const made = customEntry(rule, new Set(list.custom.map((e) => e.id)));
            if (typeof made === 'string') return made;
            if (list.custom.some((e) => e.name === made.name)) return `${made.name} is already on your list.`;
            await updateBlocklist((l) => ({ ...l, custom: [...l.custom, made] }));
            return undefined;
          },
          remove: (id) =>
            updateBlocklist((l) =>
              SHIPPED_BLOCKLIST.some((e) => e.id === id)
                ? { ...l, removed: [...new Set([...l.removed, id])] }
                : { ...l, custom: l.custom.filter((e) => e.id !== id) },
            ),
          restoreDefaults: () => updateBlocklist((l) => ({ ...l, removed: [] })),
        },
        secrets: {
          names: () => secrets.names,
          add: (name, value) => secrets.add(name, value),
          remove: (name) => secrets.remove(name),
        },
        agentsSection: host.agentsSection,
        exposure: {
          agents: () => o.settings().agents,
          candidates: (agentId) => {
            const profile = profileOf(agentId);
            return profile ? candidates(profile) : [];
          },
          declaredNow: (agentId) => declaredNow.get(agentId),
          setBrowserAccess: (agentId, on) => updateAgent(agentId, (a) => ({ ...a, browserAccess: on })),
          setOffered: (agentId, server, on) =>
            updateAgent(agentId, (a) => ({
              ...a,
              hiddenServers: on
                ? a.hiddenServers.filter((s) => s !== server)
                : [...new Set([...a.hiddenServers, server])],
            })),
          reconnect: host.reconnect,
        },
        openAudit: host.openAudit,
      };
    },
  };
}

export type GatesWiring = Awaited<ReturnType<typeof wireGates>>;
