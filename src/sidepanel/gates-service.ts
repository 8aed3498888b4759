/**
 * Everything the panel needs for the gates, built in one place: the kill switch (persisted), the
 * audit log (merged across windows), secret values, the confirmation tray, the gate environment,
 * and the Settings and audit views' actions, built once by `panel-services.ts`. The Chrome
 * calls it needs are in `gates-chrome.ts`; what each agent is offered is `AgentOffers`' call.
 */
import { customEntry, effectiveBlocklist, SHIPPED_BLOCKLIST } from '../mcp-server/gates/blocklist';
import { SessionGrants } from '../mcp-server/gates/call-gate';
import { KillSwitch } from '../mcp-server/gates/kill-switch';
import type { GateEnvironment, RefusalNotice } from '../mcp-server/gates/types';
import { AuditLog } from '../mcp-server/gates/audit-log';
import { isLocked, policyAllowsSite } from '../shared/policy';
import { PolicyHolder } from '../shared/policy-holder';
import { SecretValueStore } from '../shared/secret-values';
import type { AgentProfile, Settings } from '../shared/settings';
import type { SettingsStore } from '../shared/settings-store';
import type { StorageArea } from '../shared/stores';
import type { AgentOffers } from './agent-offers';
import type { FixableSetting } from './gate-fixes';
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
} from './gates-chrome';
import type { ForwardStatusSource } from '../platform/chrome-forward-status';
import { auditView } from './views/audit';
import { forwardingStatusView } from './views/forwarding-status';
import { PromptTray } from './views/confirmations';
import { killSwitchBanner } from './views/kill-switch';
import type { SettingsActions } from './views/settings';

export interface GatesServiceOptions {
  local: StorageArea;
  store: SettingsStore;
  promptsRoot: HTMLElement;
  /** The organisation's policy: it narrows what the gates allow (shared/policy.ts). */
  policy?: PolicyHolder;
  /** How forwarding the audit log to the organisation's collector stands (the service worker sends it). */
  forwarding?: (policy: PolicyHolder) => ForwardStatusSource;
}

/** What the panel supplies to the Settings view besides the gates' own parts. */
export interface SettingsHost {
  /** What each agent is offered: the Settings view shows it and changes it. */
  offers: Pick<AgentOffers, 'candidates' | 'declaredNow'>;
  agentsSection(): HTMLElement;
  /** Re-creates the agent's connection with its current profile, so new declarations take effect. */
  reconnect(agentId: string): void;
  openAudit(): void;
  /** Hears each change of the servers on offer (a connector or a site's page tools). */
  watchOffers(redraw: () => void): () => void;
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

export interface GatesService {
  killSwitch: KillSwitch;
  audit: AuditLog;
  secrets: SecretValueStore;
  tray: PromptTray;
  grants: SessionGrants;
  gates: GateEnvironment;
  policy: PolicyHolder;
  /** The kill switch was pulled here: withdraw waiting cards and forget "for this site" grants. */
  disconnected(): void;
  /** Pulling the switch in another window's panel disconnects this one's agents too. */
  followOtherPanels(disconnectAll: () => void): void;
  banner(agents: () => Array<{ id: string; name: string }>, reconnect: (agentId: string) => void): HTMLElement;
  auditView(close: () => void): HTMLElement;
  settingsActions(host: SettingsHost): SettingsActions;
  /** The changes a refused call's fix makes: the same ones Settings makes. */
  fixes: GateFixActions;
  /** Hears of every call the gates refuse (the agent hears only the refusal). */
  onRefused(listener: (notice: RefusalNotice) => void): void;
}

export interface GateFixActions {
  setActMode(on: boolean): Promise<void>;
  /** Asks Chrome for the site and adds it to the allowed sites; why not, when Chrome said no. */
  allowSite(origin: string): Promise<string | undefined>;
  /** The blocklist entry that matches `url`, if any (the organisation's blocked sites included). */
  blockedBy(url: string): string | undefined;
  /** Settings the organisation's policy decides: never offered as a fix. */
  locked(setting: FixableSetting): boolean;
  /** Whether the organisation's policy lets agents reach `origin`. */
  policyAllows(origin: string): boolean;
}

export async function startGates(options: GatesServiceOptions): Promise<GatesService> {
  const policy = options.policy ?? new PolicyHolder();
  // What the person set, for Settings to show; the gates act on it as the policy narrows it.
  const settings = () => options.store.get();
  const effective = () => policy.effective(options.store.get());
  const killSwitch = new KillSwitch();
  await persistKillSwitch(killSwitch, options.local);
  const forwarding = options.forwarding?.(policy);
  const retention = policy.policy.AuditRetention;
  const audit = new AuditLog(options.local, { exclusive, ...(retention ? { limit: retention } : {}) });
  await audit.load();
  const secrets = new SecretValueStore(options.local);
  await secrets.load();
  const tray = new PromptTray(options.promptsRoot);
  const grants = new SessionGrants();
  const refusalListeners = new Set<(notice: RefusalNotice) => void>();
  const gates: GateEnvironment = createPanelGates({
    settings: effective,
    policyAllowsSite: (origin) => policyAllowsSite(policy.policy, origin),
    alwaysConfirm: () => policy.policy.AlwaysConfirm === true,
    killed: () => killSwitch.engaged,
    confirmations: { ask: (request, timeoutMs, signal) => tray.confirm(request, timeoutMs, signal) },
    audit: (entry) => audit.append(entry),
    secretValues: () => secrets.values,
    hasHostPermission: chromeHasHostPermission,
    hasAllUrls: chromeHasAllUrls,
    refused: (notice) => {
      for (const listener of refusalListeners) listener(notice);
    },
  });
  const blocklist = blocklistFor(effective);

  let onSaved: (() => void) | undefined;
  const update = async (change: (current: Settings) => Settings) => {
    await options.store.update(change);
    onSaved?.();
  };
  const updateAgent = (agentId: string, change: (profile: AgentProfile) => AgentProfile) =>
    update((s) => ({ ...s, agents: s.agents.map((a) => (a.id === agentId ? change(a) : a)) }));
  const updateBlocklist = (change: (list: Settings['blocklist']) => Settings['blocklist']) =>
    update((s) => ({ ...s, blocklist: change(s.blocklist) }));
  const fixes: GateFixActions = {
    setActMode: (on) => update((s) => ({ ...s, actMode: on })),
    allowSite: async (origin) => {
      if (!(await requestHostPermission(origin))) return `Chrome did not grant access to ${origin}.`;
      if (!settings().allowedSites.includes(origin)) {
        await update((s) =>
          s.allowedSites.includes(origin) ? s : { ...s, allowedSites: [...s.allowedSites, origin] },
        );
      }
      return undefined;
    },
    blockedBy: (url) => blocklist().match(url)?.entry.name,
    locked: (setting) => setting === 'actMode' && isLocked(policy.policy, 'actMode'),
    policyAllows: (origin) => policyAllowsSite(policy.policy, origin),
  };

  return {
    killSwitch,
    audit,
    secrets,
    tray,
    grants,
    gates,
    fixes,
    onRefused: (listener) => void refusalListeners.add(listener),
    policy,

    disconnected(): void {
      tray.withdrawAll();
      grants.clear();
    },

    followOtherPanels(disconnectAll: () => void): void {
      watchStoredKillSwitch((engaged) => {
        if (engaged && !killSwitch.engaged) disconnectAll();
      });
    },

    banner(agents: () => Array<{ id: string; name: string }>, reconnect: (agentId: string) => void): HTMLElement {
      return killSwitchBanner({ killSwitch, agents, reconnect });
    },

    auditView(close: () => void): HTMLElement {
      return auditView({ log: audit, close, download: saveFile, ...(forwarding ? { forwarding } : {}) });
    },

    settingsActions(host: SettingsHost): SettingsActions {
      onSaved = host.changed;
      return {
        settings,
        effective,
        locked: (setting) => isLocked(policy.policy, setting),
        managed: () => policy.read,
        ...(forwarding ? { forwardingStatus: () => forwardingStatusView(forwarding) } : {}),
        setActMode: fixes.setActMode,
        setScreenshots: async (on) => {
          if (on) {
            if (!(await requestAllUrls())) return 'Chrome did not grant access to capture pages; screenshots stay off.';
          } else {
            await releaseAllUrls();
          }
          await update((s) => ({ ...s, screenshots: on }));
          return undefined;
        },
        setConfirmationTimeout: (seconds) => update((s) => ({ ...s, confirmationTimeoutSec: seconds })),
        allowSite: fixes.allowSite,
        removeSite: async (origin) => {
          await update((s) => ({ ...s, allowedSites: s.allowedSites.filter((site) => site !== origin) }));
          await releaseHostPermission(origin);
        },
        siteGranted: chromeHasHostPermission,
        siteBlockedBy: (origin) => fixes.blockedBy(`${origin}/`),
        blocklist: {
          entries: () => effectiveBlocklist(settings().blocklist),
          removedCount: () => settings().blocklist.removed.length,
          add: async (rule) => {
            const list = settings().blocklist;
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
          agents: () => settings().agents,
          candidates: (agentId) => host.offers.candidates(agentId),
          declaredNow: (agentId) => host.offers.declaredNow(agentId),
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
        watchOffers: host.watchOffers,
      };
    },
  };
}
