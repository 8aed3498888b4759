/**
 * Page-declared tools wired to Chrome: the window's tabs, main-world scripting, the gates, the
 * settings, and a re-read whenever a tab loads, switches or closes. Which agents are offered
 * which site's tools is `AgentOffers`' call.
 */
import type { TabQueue } from '../mcp-server/tab-queue';
import type { SessionGrants } from '../mcp-server/gates/call-gate';
import type { GateEnvironment } from '../mcp-server/gates/types';
import type { OfferableServer } from './agent-offers';
import { ChromePageToolsTransport } from '../platform/page-tools-tabs';
import type { SettingsStore } from '../shared/settings-store';
import { pageServerKey, PageToolsHub, type PageToolsChange } from '../webmcp/hub';
import { pageServerName } from '../webmcp/page-tools';
import { PageToolsAccess } from '../webmcp/page-access';
import { offeredPageToolSites, withPageTools } from '../webmcp/page-tool-sites';
import { pageToolsSection } from './views/page-tools';

export interface PanelPageToolsOptions {
  windowId: number;
  version: string;
  gates: GateEnvironment;
  grants: SessionGrants;
  store: SettingsStore;
  /** Page calls on one tab, one at a time, shared with the browser tools. */
  tabQueue: TabQueue;
}

export interface PanelPageTools {
  hub: PageToolsHub;
  /** Each offered site's page server, in declaration order. */
  offerable(): OfferableServer[];
  section(): HTMLElement;
  onChange(listener: (change: PageToolsChange) => void): () => void;
}

export function startPageTools(options: PanelPageToolsOptions): PanelPageTools {
  const transport = new ChromePageToolsTransport(options.windowId);
  const hub = new PageToolsHub({
    version: options.version,
    access: new PageToolsAccess({ transport, decide: (url) => options.gates.originRefusal(url) }),
    findTab: (origin) => transport.findTab(origin),
    origins: () => offeredPageToolSites(options.store.get()),
    gates: options.gates,
    grants: options.grants,
    tabQueue: options.tabQueue,
    // A site's tool left out for a bad schema, or a read that failed, is the site author's to see.
    log: (message) => console.warn('Tabwright page tools:', message),
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
    offerable: () =>
      hub.origins().map((origin) => ({
        name: pageServerName(origin),
        key: pageServerKey(origin),
        server: (agent) => hub.serverFor({ id: agent.id, name: agent.name, exposed: () => agent.exposed() }, origin),
      })),
    section: () =>
      pageToolsSection({
        settings: () => options.store.get(),
        setOffered: async (origin, on) => {
          await options.store.update((settings) => withPageTools(settings, origin, on));
          hub.poke();
        },
      }),
    onChange: (listener) => hub.onChange(listener),
  };
}
