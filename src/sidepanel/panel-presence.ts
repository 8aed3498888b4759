/**
 * The panel's side of what the user sees while an agent works: the agents' tab groups (cleaned
 * up when an agent disconnects, when groups are turned off, and when a panel closed mid-work left
 * some behind), the outline during actions, download reports, and their Settings section.
 */
import type { BrowserPort } from '../mcp-server/browser-port';
import type { CallActivity } from '../mcp-server/call-activity';
import type { DownloadPort } from '../mcp-server/downloads';
import { chromeDownloads, releaseDownloadsPermission, requestDownloadsPermission } from '../platform/chrome-downloads';
import { chromeOutline } from '../platform/chrome-outline';
import { chromeTabGroups, followTabGroupEvents, storedGroupMemory } from '../platform/chrome-tab-groups';
import { CallPresence } from '../presence/call-presence';
import { AgentTabGroups } from '../presence/tab-groups';
import type { Settings } from '../shared/settings';
import type { StorageArea } from '../shared/stores';
import type { AgentHub } from './agent-hub';
import { t } from './i18n';
import { presenceSettingsSection } from './views/presence-settings';

export interface PresenceOptions {
  windowId: number;
  browser: BrowserPort;
  /** The gates' decision for a URL: the outline goes only on pages they allow. */
  originRefusal(url: string): Promise<string | undefined>;
  /** Where the groups this panel made are remembered (session storage: they do not outlive the browser). */
  session: StorageArea;
  settings(): Settings;
  saveSettings(next: Settings): Promise<void>;
}

export async function startPresence(o: PresenceOptions) {
  const warn = (error: unknown) => console.warn('Tabwright:', error);
  const groups = new AgentTabGroups(chromeTabGroups(), {
    enabled: () => o.settings().agentTabGroups,
    memory: storedGroupMemory(o.session, o.windowId),
    onError: warn,
  });
  followTabGroupEvents(groups);
  await groups.cleanUpLeftovers();
  // Closing the panel ends every agent's connection, so their groups go with it.
  addEventListener('pagehide', () => groups.abandon());
  const presence = new CallPresence({
    groups,
    outline: chromeOutline(o.browser.page, (url) => o.originRefusal(url)),
    outlineOn: () => o.settings().agentOutline,
    label: (name) => t('agentWorkingHere', name),
    activeTab: (windowId) => o.browser.activeTab(windowId),
    onError: warn,
  });
  const downloads: DownloadPort = chromeDownloads(o.settings);

  return {
    downloads,

    activityFor(agentId: string, name: () => string): CallActivity {
      return presence.activityFor(() => ({ id: agentId, name: name() }));
    },

    /** An agent that is no longer connected (or no longer there) takes its group with it. */
    follow(hub: AgentHub): void {
      hub.onChange(() => {
        // An agent that is slow to answer a probe is still there: only a closed connection counts.
        const live = (status: string) => status === 'connected' || status === 'unresponsive';
        const connected = new Set(hub.views().flatMap((v) => (live(v.status) ? [v.profile.id] : [])));
        for (const agentId of groups.agentIds()) if (!connected.has(agentId)) void groups.dissolve(agentId);
      });
    },

    section(): HTMLElement {
      return presenceSettingsSection({
        settings: o.settings,
        setTabGroups: async (on) => {
          await o.saveSettings({ ...o.settings(), agentTabGroups: on });
          if (!on) await groups.dissolveAll();
        },
        setOutline: (on) => o.saveSettings({ ...o.settings(), agentOutline: on }),
        setReportDownloads: async (on) => {
          if (on) {
            if (!(await requestDownloadsPermission())) return t('downloadsNotGranted');
            await o.saveSettings({ ...o.settings(), reportDownloads: true, downloadsSince: Date.now() });
          } else {
            await o.saveSettings({ ...o.settings(), reportDownloads: false });
            await releaseDownloadsPermission();
          }
          return undefined;
        },
      });
    },
  };
}
