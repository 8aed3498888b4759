/**
 * The panel's side of what the user sees while an agent works: the agents' tab groups (each
 * agent's own tabs, kept in step with who owns which tab both ways; cleaned up when an agent
 * disconnects, when groups are turned off, and when a panel closed mid-work left some behind), the
 * outline during actions, download reports, and their Settings section.
 */
import type { BrowserPort } from '../mcp-server/browser-port';
import type { CallActivity } from '../mcp-server/call-activity';
import type { DownloadPort } from '../mcp-server/downloads';
import { chromeDownloads, releaseDownloadsPermission, requestDownloadsPermission } from '../platform/chrome-downloads';
import { chromeOutline } from '../platform/chrome-outline';
import { chromeTabGroups, followTabGroupEvents, storedGroupMemory } from '../platform/chrome-tab-groups';
import type { TabOwnership } from '../mcp-server/tab-ownership';
import { CallPresence } from '../presence/call-presence';
import { OwnedTabGroups } from '../presence/owned-tab-groups';
import { AgentTabGroups, type AgentRef } from '../presence/tab-groups';
import type { LockedSetting } from '../shared/policy';
import type { Settings } from '../shared/settings';
import type { SettingsStore } from '../shared/settings-store';
import type { StorageArea } from '../shared/stores';
import type { AgentHub } from './agent-hub';
import { t } from './i18n';
import { presenceSettingsSection } from './views/presence-settings';

export interface PresenceOptions {
  windowId: number;
  browser: BrowserPort;
  /** Where the groups this panel made are remembered (session storage: they do not outlive the browser). */
  session: StorageArea;
  store: SettingsStore;
  /** Who owns which tab: an agent's group shows its tabs, and the user's drags give and take them. */
  ownership: TabOwnership;
  /** The settings in force (the person's, narrowed by an organisation's policy); the store's when absent. */
  effective?(): Settings;
  /** Whether the organisation's policy decides a setting (its switch shows locked). */
  locked?(setting: LockedSetting): boolean;
}

export interface PanelPresence {
  downloads: DownloadPort;
  /** The presence hooks for one agent's calls, naming it as it is named now. */
  activityFor(agentId: string, name: () => string): CallActivity;
  /** An agent that is no longer connected (or no longer there) takes its group with it. */
  follow(hub: AgentHub): void;
  section(): HTMLElement;
}

export async function startPresence(options: PresenceOptions): Promise<PanelPresence> {
  const settings = () => options.store.get();
  const warn = (error: unknown) => console.warn('Tabwright:', error);
  const groups = new AgentTabGroups(chromeTabGroups(), {
    enabled: () => settings().agentTabGroups,
    memory: storedGroupMemory(options.session, options.windowId),
    onError: warn,
  });
  followTabGroupEvents(groups);
  await groups.cleanUpLeftovers();
  // Agents get groups while connected; until the hub is followed, none is.
  let connected = new Map<string, AgentRef>();
  const owned = new OwnedTabGroups({
    ownership: options.ownership,
    groups,
    agent: (agentId) => (settings().agentTabGroups ? connected.get(agentId) : undefined),
  });
  // Closing the panel ends every agent's connection, so their groups go with it.
  addEventListener('pagehide', () => groups.abandon());
  const presence = new CallPresence({
    groups,
    outline: chromeOutline(),
    outlineOn: () => settings().agentOutline,
    label: (name) => t('agentWorkingHere', name),
    waitingLabel: (name) => t('agentWaitingForYou', name),
    activeTab: (windowId) => options.browser.activeTab(windowId),
    onError: warn,
  });
  // Reporting follows the policy too: off by policy is off, whatever the switch says.
  const downloads: DownloadPort = chromeDownloads(options.effective ?? settings);

  return {
    downloads,

    activityFor(agentId: string, name: () => string): CallActivity {
      return presence.activityFor(() => ({ id: agentId, name: name() }));
    },

    follow(hub: AgentHub): void {
      hub.onChange(() => {
        // An agent that is slow to answer a probe is still there: only a closed connection counts.
        const live = (status: string) => status === 'connected' || status === 'unresponsive';
        const before = connected;
        connected = new Map(
          hub
            .views()
            .flatMap((v) => (live(v.status) ? [[v.profile.id, { id: v.profile.id, name: v.profile.name }]] : [])),
        );
        for (const agentId of groups.agentIds()) if (!connected.has(agentId)) void groups.dissolve(agentId);
        // An agent that connects finds its tabs, kept while it was away, in its group again; a
        // renamed one's group takes the new name.
        for (const [agentId, agent] of connected) if (before.get(agentId)?.name !== agent.name) owned.regroup(agentId);
      });
    },

    section(): HTMLElement {
      return presenceSettingsSection({
        settings,
        ...(options.effective ? { effective: options.effective } : {}),
        ...(options.locked ? { locked: options.locked } : {}),
        setTabGroups: async (on) => {
          await options.store.update((s) => ({ ...s, agentTabGroups: on }));
          if (!on) await groups.dissolveAll();
          else for (const agentId of connected.keys()) owned.regroup(agentId);
        },
        setOutline: (on) => options.store.update((s) => ({ ...s, agentOutline: on })),
        setReportDownloads: async (on) => {
          if (on) {
            if (!(await requestDownloadsPermission())) return t('downloadsNotGranted');
            await options.store.update((s) => ({ ...s, reportDownloads: true, downloadsSince: Date.now() }));
          } else {
            await options.store.update((s) => ({ ...s, reportDownloads: false }));
            await releaseDownloadsPermission();
          }
          return undefined;
        },
      });
    },
  };
}
