/**
 * The panel's connectors, wired to Chrome: their own background tabs, the gates, stored settings
 * and recipes, health checks on a timer, the sign-in prompt, and the Settings section. The panel
 * asks it which connector servers each agent is offered.
 */
import { builtinConnectors } from '../connectors/builtin';
import { ConnectorHub, MAX_CONNECTOR_SERVERS, type ServersChange } from '../connectors/hub';
import { MAX_DECLARED_SERVERS } from '../contract/acp';
import { RecipeStore } from '../connectors/recipe-store';
import type { SessionGrants } from '../mcp-server/gates/call-gate';
import type { GateEnvironment } from '../mcp-server/gates/types';
import type { ToolServer } from '../mcp-server/mcp-core';
import { ChromeConnectorTabs } from '../platform/connector-tabs';
import type { AgentProfile, ConnectorSettings, Settings } from '../shared/settings';
import type { StorageArea } from '../shared/stores';
import { connectorsSection, showSignInPrompt } from './views/connectors';

export interface PanelConnectorsOptions {
  windowId: number;
  version: string;
  local: StorageArea;
  gates: GateEnvironment;
  grants: SessionGrants;
  settings(): Settings;
  saveSettings(next: Settings): Promise<void>;
  promptsRoot: HTMLElement;
  /** Whether an agent is still offered a server (the gates' exposure check), read on every call. */
  exposedFor?(agentId: string, server: string): () => boolean;
  /** Problems the user should read (a stored recipe that no longer reads). */
  notice(text: string): void;
}

export interface PanelConnectors {
  hub: ConnectorHub;
  /** Connector servers for an agent, after `taken` other servers (OpenAB caps a session's servers). */
  serversFor(profile: AgentProfile, taken?: number): Array<{ key: string; server: ToolServer }>;
  section(): HTMLElement;
  onServersChange(listener: (change: ServersChange) => void): () => void;
}

export async function startConnectors(o: PanelConnectorsOptions): Promise<PanelConnectors> {
  const hub = new ConnectorHub({
    version: o.version,
    windowId: o.windowId,
    builtins: builtinConnectors,
    recipes: new RecipeStore(o.local),
    port: new ChromeConnectorTabs(o.windowId),
    gates: o.gates,
    grants: o.grants,
    connectorSettings: () => o.settings().connectors,
    saveConnectorSettings: (connectors: Record<string, ConnectorSettings>) =>
      o.saveSettings({ ...o.settings(), connectors }),
    healthMinutes: () => o.settings().connectorHealthMinutes,
    timers: {
      setInterval: (fn, ms) => setInterval(fn, ms),
      clearInterval: (handle) => clearInterval(handle as ReturnType<typeof setInterval>),
      now: () => Date.now(),
    },
    promptSignIn: (connector, url) => showSignInPrompt(o.promptsRoot, connector, url),
  });
  for (const problem of await hub.load()) o.notice(problem);
  hub.start();
  return {
    hub,
    serversFor: (profile, taken = 1) =>
      hub.serversFor(
        {
          id: profile.id,
          hiddenServers: profile.hiddenServers,
          name: () => o.settings().agents.find((a) => a.id === profile.id)?.name ?? profile.name,
          ...(o.exposedFor ? { exposed: (server: string) => o.exposedFor!(profile.id, server)() } : {}),
        },
        Math.max(0, Math.min(MAX_CONNECTOR_SERVERS, MAX_DECLARED_SERVERS - taken)),
      ),
    section: () => connectorsSection(hub),
    onServersChange: (listener) => hub.onServersChange(listener),
  };
}
