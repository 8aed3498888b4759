/**
 * Page-declared tools wired to Chrome: the window's tabs, main-world scripting, the gates, the
 * settings, and a re-read whenever a tab loads, switches or closes. The panel asks it which page
 * servers each agent is offered.
 */
import type { SessionGrants } from '../mcp-server/gates/call-gate';
import type { GateEnvironment } from '../mcp-server/gates/types';
import type { ToolServer } from '../mcp-server/mcp-core';
import { ChromePageToolsTransport } from '../platform/page-tools-tabs';
import type { AgentProfile, Settings } from '../shared/settings';
import { PageToolsHub, type PageToolsChange } from '../webmcp/hub';
import { PageToolsAccess } from '../webmcp/page-access';
import { offeredPageToolSites, withPageTools } from '../webmcp/page-tool-sites';
import { pageToolsSection } from './views/page-tools';

export interface PanelPageToolsOptions {
  windowId: number;
  version: string;
  gates: GateEnvironment;
  grants: SessionGrants;
  settings(): Settings;
  saveSettings(next: Settings): Promise<void>;
  exposedFor?(agentId: string, server: string): () => boolean;
}

export interface PanelPageTools {
  hub: PageToolsHub;
  serversFor(profile: AgentProfile): Array<{ key: string; server: ToolServer }>;
  section(): HTMLElement;
  onChange(listener: (change: PageToolsChange) => void): () => void;
}

export function startPageTools(o: PanelPageToolsOptions): PanelPageTools {
  const transport = new ChromePageToolsTransport(o.windowId);
  const hub = new PageToolsHub({
    version: o.version,
    access: new PageToolsAccess({ transport, decide: (url) => o.gates.originRefusal(url) }),
    findTab: (origin) => transport.findTab(origin),
    origins: () => offeredPageToolSites(o.settings()),
    gates: o.gates,
    grants: o.grants,
    timers: {
      setInterval: (fn, ms) => setInterval(fn, ms),
      clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
    },
  });
  chrome.tabs.onUpdated.addListener((_tabId, change) => {
    if (change.status === 'complete' || change.url !== undefined) hub.poke();
  });
  chrome.tabs.onActivated.addListener(() => hub.poke());
  chrome.tabs.onRemoved.addListener(() => hub.poke());
  hub.start();
  return {
    hub,
    serversFor: (profile) =>
      hub.serversFor({
        id: profile.id,
        hiddenServers: profile.hiddenServers,
        name: () => o.settings().agents.find((a) => a.id === profile.id)?.name ?? profile.name,
        ...(o.exposedFor ? { exposed: (server: string) => o.exposedFor!(profile.id, server)() } : {}),
      }),
    section: () =>
      pageToolsSection({
        settings: o.settings,
        setOffered: async (origin, on) => {
          await o.saveSettings(withPageTools(o.settings(), origin, on));
          hub.poke();
        },
      }),
    onChange: (listener) => hub.onChange(listener),
  };
}
