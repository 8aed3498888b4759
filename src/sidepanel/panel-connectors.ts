/**
 * The panel's connectors, wired to Chrome: their own background tabs, the gates, stored settings
 * and recipes, health checks on a timer, the sign-in prompt, and the Settings section. Which
 * agents are offered which connector is `AgentOffers`' call.
 */
import { builtinConnectors } from '../connectors/builtin';
import { ConnectorHub, type ServersChange } from '../connectors/hub';
import { RecipeStore } from '../connectors/recipe-store';
import type { SessionGrants } from '../mcp-server/gates/call-gate';
import type { GateEnvironment } from '../mcp-server/gates/types';
import { ChromeConnectorTabs } from '../platform/connector-tabs';
import type { SettingsStore } from '../shared/settings-store';
import type { StorageArea } from '../shared/stores';
import { connectorsSection, showSignInPrompt } from './views/connectors';

export interface PanelConnectorsOptions {
  windowId: number;
  version: string;
  local: StorageArea;
  gates: GateEnvironment;
  grants: SessionGrants;
  store: SettingsStore;
  promptsRoot: HTMLElement;
  /** Problems the user should read (a stored recipe that no longer reads). */
  notice(text: string): void;
  /** Whether recipes may be imported (an organisation's policy can turn it off). */
  recipeImport?(): boolean;
}

export interface PanelConnectors {
  hub: ConnectorHub;
  section(): HTMLElement;
  onServersChange(listener: (change: ServersChange) => void): () => void;
}

export async function startConnectors(options: PanelConnectorsOptions): Promise<PanelConnectors> {
  const hub = new ConnectorHub({
    version: options.version,
    windowId: options.windowId,
    builtins: builtinConnectors,
    recipes: new RecipeStore(options.local),
    port: new ChromeConnectorTabs(options.windowId),
    gates: options.gates,
    grants: options.grants,
    connectorSettings: () => options.store.get().connectors,
    updateConnectorSettings: (change) =>
      options.store.update((settings) => ({ ...settings, connectors: change(settings.connectors) })),
    healthMinutes: () => options.store.get().connectorHealthMinutes,
    timers: {
      setInterval: (fn, ms) => setInterval(fn, ms),
      clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
      now: () => Date.now(),
    },
    promptSignIn: (connector, url) => showSignInPrompt(options.promptsRoot, connector, url),
  });
  for (const problem of await hub.load()) options.notice(problem);
  hub.start();
  return {
    hub,
    section: () => connectorsSection(hub, options.recipeImport),
    onServersChange: (listener) => hub.onServersChange(listener),
  };
}
