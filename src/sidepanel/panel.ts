/**
 * Boots the side panel for its window: loads settings, builds the tool servers and gates, starts
 * one connection per agent and mounts the views.
 */
import { fetchProbe } from '../acp/failure';
import { systemClock } from '../acp/clock';
import { browserTools } from '../mcp-server/tools';
import { BrowserToolServer } from '../mcp-server/browser-server';
import { SnapshotService } from '../mcp-server/snapshot-service';
import type { ToolServer } from '../mcp-server/mcp-core';
import { ChromeBrowser } from '../platform/chrome-browser';
import { ChromeDialogs } from '../platform/chrome-dialogs';
import type { AgentProfile, Settings } from '../shared/settings';
import { PermissionChoices, SessionIdStore, SettingsStore, StoredRefCounters, TokenStore } from '../shared/stores';
import { AgentHub } from './agent-hub';
import { ChatModel } from './chat-model';
import { chromeArea } from './chrome-area';
import { h } from './dom';
import { localise, t } from './i18n';
import { mountChat, restoreChat } from './panel-chat';
import { startConnectors } from './panel-connectors';
import { startPageTools } from './panel-page-tools';
import { startPresence } from './panel-presence';
import { wireGates } from './gates-wiring';
import { agentForm, type NewAgent } from './views/agent-form';
import { roomSettingsSection } from './views/room-settings';
import { settingsView } from './views/settings';
import { adoptClosedWindow } from './window-adoption';
import { pageServerKey } from '../webmcp/hub';

export const DEFAULT_BROKER_URL = 'ws://127.0.0.1:8765/acp';

/** `npm start` drops the local broker's address beside the extension so the first run can offer it. */
async function suggestedBrokerUrl(): Promise<string> {
  try {
    const response = await fetch(chrome.runtime.getURL('local-broker.json'));
    if (response.ok) {
      const { url } = (await response.json()) as { url?: unknown };
      if (typeof url === 'string') return url;
    }
  } catch {
    // Not started by `npm start`.
  }
  return DEFAULT_BROKER_URL;
}

export async function startPanel(): Promise<void> {
  localise(document);
  const windowId = (await chrome.windows.getCurrent()).id ?? -1;
  const local = chromeArea(chrome.storage.local);
  const settingsStore = new SettingsStore(local);
  const loaded = await settingsStore.load();
  let settings: Settings = loaded.settings;
  const saveSettings = async (next: Settings) => {
    settings = next;
    await settingsStore.save(settings);
  };

  const sessionIds = new SessionIdStore(local);
  const openWindows = await chrome.windows.getAll();
  await adoptClosedWindow({
    area: local,
    sessions: sessionIds,
    windowId,
    openWindowIds: new Set(openWindows.flatMap((w) => (w.id === undefined ? [] : [w.id]))),
    agentIds: settings.agents.map((agent) => agent.id),
  });
  const chat = new ChatModel();
  const restored = await restoreChat(chat, local, windowId);
  if (loaded.problem) chat.notice(loaded.problem);
  const tokens = new TokenStore(local);
  const browser = new ChromeBrowser();
  const dialogs = new ChromeDialogs();
  const snapshots = new SnapshotService(new StoredRefCounters(chromeArea(chrome.storage.session)));
  const promptsRoot = document.getElementById('prompts')!;
  const gatesWiring = await wireGates({
    local,
    settings: () => settings,
    saveSettings,
    promptsRoot,
    candidates: (profile) => [
      profile.serverName,
      ...connectors.hub.enabled().map((connector) => connector.id),
      ...pageTools.hub.names(),
    ],
  });
  const { killSwitch, gates, grants } = gatesWiring;
  const presence = await startPresence({
    windowId,
    browser,
    originRefusal: (url) => gates.originRefusal(url),
    session: chromeArea(chrome.storage.session),
    settings: () => settings,
    saveSettings,
  });
  const version = chrome.runtime.getManifest().version;
  const browserServers = new Map<string, ToolServer>();
  const connectors = await startConnectors({
    windowId,
    version,
    local,
    gates,
    grants,
    settings: () => settings,
    saveSettings,
    promptsRoot,
    exposedFor: (agentId, server) => gatesWiring.exposedFor(agentId, server),
    notice: (text) => chat.notice(text),
  });
  const pageTools = startPageTools({
    windowId,
    version,
    gates,
    grants,
    settings: () => settings,
    saveSettings,
    exposedFor: (agentId, server) => gatesWiring.exposedFor(agentId, server),
  });

  /** Every server this agent could be offered; the gates decide which are declared. */
  const offerableServers = (profile: AgentProfile) => {
    if (!profile.browserAccess || profile.hiddenServers.includes(profile.serverName))
      return [...connectors.serversFor(profile, 0), ...pageTools.serversFor(profile)];
    const key = `${profile.id}:${profile.serverName}`;
    let server = browserServers.get(key);
    if (!server) {
      const agentName = () => settings.agents.find((a) => a.id === profile.id)?.name ?? profile.name;
      server = new BrowserToolServer({
        name: profile.serverName,
        version,
        agentName,
        windowId,
        tools: browserTools,
        browser,
        snapshots,
        gates,
        grants,
        exposed: gatesWiring.exposedFor(profile.id, profile.serverName),
        downloads: presence.downloads,
        dialogs,
        activity: presence.activityFor(profile.id, agentName),
      });
      browserServers.set(key, server);
    }
    return [{ key: 'browser', server }, ...connectors.serversFor(profile), ...pageTools.serversFor(profile)];
  };

  const hub = new AgentHub({
    windowId,
    killSwitch,
    version,
    chat,
    tokens,
    sessionIds,
    permissions: new PermissionChoices(local),
    WebSocket,
    probe: fetchProbe,
    clock: systemClock,
    mintId: () => crypto.randomUUID(),
    serversFor: (profile) => gatesWiring.declare(profile, offerableServers(profile)),
    rememberServerId: (agentId, key, id) => {
      const agents = settings.agents.map((a) =>
        a.id === agentId ? { ...a, serverIds: { ...a.serverIds, [key]: id } } : a,
      );
      void saveSettings({ ...settings, agents });
    },
    onPermission: (agent, prompt) => chat.permission(agent.id, agent.name, prompt),
    roomMode: () => settings.roomMode,
    loopGuardCap: () => settings.loopGuardCap,
  });
  presence.follow(hub);
  connectors.onServersChange((change) => {
    if (change.kind === 'tools') hub.announceListChanged(`connector:${change.connectorId}`);
    else hub.redeclare();
  });
  pageTools.onChange((change) => {
    if (change.kind === 'tools') hub.announceListChanged(pageServerKey(change.origin));
    else hub.redeclare();
  });

  const main = document.getElementById('main')!;
  const defaultUrl = await suggestedBrokerUrl();
  let showingSettings = false;
  const chatUi = mountChat({
    windowId,
    chat,
    hub,
    restored,
    tokens,
    sessionIds,
    local,
    rosterRoot: document.getElementById('roster')!,
    defaultUrl,
    settings: () => settings,
    saveSettings,
    showSettings: () => {
      showingSettings = true;
      render();
    },
    chatShown: () => !showingSettings && settings.agents.length > 0,
    showChat: () => {
      showingSettings = false;
      render();
    },
    mainRoot: main,
  });
  const addAgent = async (input: NewAgent) => {
    const first = settings.agents.length === 0;
    await chatUi.addAgent(input);
    render();
    if (first) chatUi.composer.focus();
  };
  const agentsSection = chatUi.agentsSection;
  const settingsPanel = () =>
    settingsView(
      gatesWiring.settingsActions({
        agentsSection,
        reconnect: (agentId) => {
          const profile = settings.agents.find((a) => a.id === agentId);
          if (profile) void hub.add(profile).then(render);
        },
        openAudit: () => main.replaceChildren(gatesWiring.auditView(render)),
        changed: () => chatUi.refresh(),
      }),
    );

  const render = () => {
    chatUi.refresh();
    document.getElementById('open-settings')!.setAttribute('aria-pressed', String(showingSettings));
    if (settings.agents.length === 0) {
      main.replaceChildren(
        h(
          'section',
          { className: 'first-run', 'aria-labelledby': 'first-run-heading' },
          h('h2', { id: 'first-run-heading' }, t('firstRunHeading')),
          h('p', {}, t('firstRunIntro')),
          agentForm({ defaultUrl, takenNames: () => [], onSubmit: addAgent }),
        ),
      );
      return;
    }
    main.replaceChildren(
      ...(showingSettings
        ? [
            settingsPanel(),
            presence.section(),
            roomSettingsSection({
              settings: () => settings,
              save: (change) => saveSettings({ ...settings, ...change }),
            }),
            connectors.section(),
            pageTools.section(),
          ]
        : [chatUi.section]),
    );
  };

  document.getElementById('open-settings')!.addEventListener('click', () => {
    showingSettings = !showingSettings;
    render();
  });
  const disconnectAll = () => {
    hub.disconnectAll();
    gatesWiring.disconnected();
    chat.notice(t('disconnectedAll'));
  };
  document.getElementById('disconnect-all')!.addEventListener('click', disconnectAll);
  gatesWiring.followOtherPanels(disconnectAll);
  promptsRoot.before(
    gatesWiring.banner(
      () => settings.agents,
      (id) => hub.reconnect(id),
    ),
  );
  document.getElementById('version')!.textContent = `v${version}`;
  // The view is drawn once, before the agents start: a click on Settings while they connect opens
  // it for good, and nothing typed there is wiped by a late redraw (their state updates in place).
  render();
  for (const profile of settings.agents) await hub.add(profile);
  chatUi.resendQueued();
  chatUi.refresh();
}
