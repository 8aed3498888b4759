/**
 * The panel's services, built once per panel in dependency order: the settings store, the gates,
 * presence, connectors, what each agent is offered, and the hub of agent connections. The views
 * in `panel.ts` are handed this one object.
 */
import { fetchProbe } from '../acp/failure';
import { systemClock } from '../acp/clock';
import { browserTools } from '../mcp-server/tools';
import { browserToolServer } from '../mcp-server/browser-server';
import { SnapshotService } from '../mcp-server/snapshot-service';
import { connectorServerKey } from '../connectors/hub';
import { ChromeBrowser } from '../platform/chrome-browser';
import { ChromeDialogs } from '../platform/chrome-dialogs';
import { ServerCache } from '../mcp-server/server-cache';
import { TabQueue } from '../mcp-server/tab-queue';
import { CallerBook } from '../mcp-server/caller';
import type { TabOwnership } from '../mcp-server/tab-ownership';
import type { KillSwitch } from '../mcp-server/gates/kill-switch';
import { loadTabOwnership } from '../platform/chrome-tab-ownership';
import { followTabFacts } from '../platform/chrome-tab-facts';
import { TabSharing } from '../presence/tab-sharing';
import { watchDialogHolds } from '../platform/chrome-dialog-holds';
import { SettingsStore } from '../shared/settings-store';
import { loadManagedPolicy } from '../platform/chrome-policy';
import { brokerAllowed, isLocked, policyOffersServer, policyOffersTool } from '../shared/policy';
import type { PolicyHolder } from '../shared/policy-holder';
import { t } from './i18n';
import { PermissionChoices } from '../acp/permission-choices';
import { SessionIdStore, StoredRefCounters, TokenStore, type StorageArea } from '../shared/stores';
import { AgentHub } from './agent-hub';
import { AgentOffers, BROWSER_SERVER_KEY, offerChoicesChanged, type ServedAgent } from './agent-offers';
import { ChatModel } from './chat-model';
import { chromeArea } from './chrome-area';
import { chromeForwardStatus } from '../platform/chrome-forward-status';
import { startGates, type GatesService } from './gates-service';
import { startConnectors, type PanelConnectors } from './panel-connectors';
import { startPageTools, type PanelPageTools } from './panel-page-tools';
import { startPresence, type PanelPresence } from './panel-presence';
import { pageServerKey } from '../webmcp/hub';
import { restoreChat, type RestoredChat } from './panel-chat';
import { adoptClosedWindow } from './window-adoption';

export interface PanelServices {
  windowId: number;
  version: string;
  local: StorageArea;
  store: SettingsStore;
  tokens: TokenStore;
  sessionIds: SessionIdStore;
  chat: ChatModel;
  restored: RestoredChat;
  guards: GatesService;
  presence: PanelPresence;
  connectors: PanelConnectors;
  pageTools: PanelPageTools;
  offers: AgentOffers;
  hub: AgentHub;
  /** The tab in front and each agent's tabs, as the person gives and takes them. */
  sharing: TabSharing;
  /** The organisation's policy as last read. */
  policy: PolicyHolder;
  /** Why the policy forbids the broker at this URL, if it does. */
  brokerRefusal(url: string): string | undefined;
  /** Whether the policy turns "Follow my current tab" off for every agent. */
  followLocked(): boolean;
}

export async function buildPanelServices(promptsRoot: HTMLElement): Promise<PanelServices> {
  const windowId = (await chrome.windows.getCurrent()).id ?? -1;
  const version = chrome.runtime.getManifest().version;
  const local = chromeArea(chrome.storage.local);
  const session = chromeArea(chrome.storage.session);
  const { store, problem, migratedFrom } = await SettingsStore.open(local);

  const sessionIds = new SessionIdStore(local);
  const openWindows = await chrome.windows.getAll();
  await adoptClosedWindow({
    area: local,
    sessions: sessionIds,
    windowId,
    openWindowIds: new Set(openWindows.flatMap((w) => (w.id === undefined ? [] : [w.id]))),
    agentIds: store.get().agents.map((agent) => agent.id),
  });
  const chat = new ChatModel();
  const restored = await restoreChat(chat, local, windowId);
  if (problem) chat.notice(problem);
  // Said once, by the panel that moved the settings on: agents saved before keep working as they did.
  if (migratedFrom !== undefined && migratedFrom < 5 && store.get().agents.length) chat.notice(t('ownTabsNotice'));
  const tokens = new TokenStore(local);
  const browser = new ChromeBrowser();
  const dialogs = new ChromeDialogs();
  const holds = watchDialogHolds();
  const tabQueue = new TabQueue();
  const ownership = await loadTabOwnership(windowId);
  const snapshots = new SnapshotService(new StoredRefCounters(session));

  const policy = await loadManagedPolicy();
  const effective = () => policy.effective(store.get());
  const brokerRefusal = (url: string) => (brokerAllowed(policy.policy, url) ? undefined : t('brokerForbidden', url));
  const guards = await startGates({ local, store, promptsRoot, policy, forwarding: chromeForwardStatus });
  const { killSwitch, gates, grants } = guards;
  const presence = await startPresence({
    windowId,
    browser,
    session,
    store,
    ownership,
    effective,
    locked: (setting) => isLocked(policy.policy, setting),
  });
  const connectors = await startConnectors({
    windowId,
    version,
    local,
    gates,
    grants,
    store,
    promptsRoot,
    notice: (text) => chat.notice(text),
    recipeImport: () => policy.policy.RecipeImport !== false,
  });

  const pageTools = startPageTools({
    windowId,
    version,
    gates,
    grants,
    store,
    tabQueue,
    effective,
    locked: () => isLocked(policy.policy, 'pageToolSites'),
  });

  const browserServers = new ServerCache();
  const offers = new AgentOffers({
    store,
    browserServer: (profile, agent) =>
      browserServers.get(profile.id, profile.serverName, () => {
        const callers = new CallerBook(profile.id, agent.name);
        return browserToolServer({
          name: profile.serverName,
          version,
          agentName: agent.name,
          windowId,
          tools: browserTools,
          browser,
          snapshots,
          gates,
          grants,
          exposed: agent.exposed,
          // Read live from the stored profile: an edited broker URL takes the broker's own offer.
          toolOffered: (name) => {
            const url = store.get().agents.find((a) => a.id === profile.id)?.url ?? profile.url;
            return policyOffersTool(policy.policy, url, name);
          },
          downloads: presence.downloads,
          dialogs,
          holds,
          tabQueue,
          activity: presence.activityFor(profile.id, agent.name),
          ownership,
          follows: () => effective().agents.find((a) => a.id === profile.id)?.followCurrentTab ?? false,
          callerOf: (meta) => {
            const caller = callers.of(meta);
            // A client's tabs are listed under the name it gave.
            if (meta.caller) sharing.nameClient(caller.id, caller.label);
            return caller;
          },
        });
      }),
    others: () => [
      ...connectors.hub.enabled().map((connector) => ({
        name: connector.id,
        key: connectorServerKey(connector.id),
        server: (agent: ServedAgent) => connectors.hub.serverFor(agent, connector.id),
      })),
      ...pageTools.offerable(),
    ],
    mintId: () => crypto.randomUUID(),
    allows: (profile, key) => policyOffersServer(policy.policy, profile.url, key),
  });

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
    offers,
    onPermission: (agent, prompt) => chat.permission(agent.id, agent.name, prompt),
    onElicitation: (agent, prompt) => chat.elicitation(agent.id, agent.name, prompt),
    roomMode: () => store.get().roomMode,
    loopGuardCap: () => store.get().loopGuardCap,
    brokerRefusal,
  });
  // A policy that now forbids an agent's broker, or allows it again, takes effect at once.
  let forbidden = new Set(
    store
      .get()
      .agents.filter((a) => brokerRefusal(a.url))
      .map((a) => a.id),
  );
  policy.subscribe(() => {
    const now = new Set(
      store
        .get()
        .agents.filter((a) => brokerRefusal(a.url))
        .map((a) => a.id),
    );
    for (const agent of store.get().agents) {
      if (now.has(agent.id) !== forbidden.has(agent.id)) void hub.add(agent);
    }
    forbidden = now;
    // Tools offered or withdrawn: agents list the browser tools again, and get servers newly allowed.
    hub.announceListChanged(BROWSER_SERVER_KEY);
    hub.redeclare();
  });
  presence.follow(hub);
  followCallers(ownership, store, killSwitch);
  const sharing = new TabSharing(ownership, {
    // An agent that follows the tab in front has it already, so only its MCP clients are offered a tab.
    agents: () =>
      hub
        .views()
        .flatMap(({ profile, status }) =>
          (status === 'connected' || status === 'unresponsive') && profile.browserAccess
            ? [{ id: profile.id, name: profile.name, follows: profile.followCurrentTab }]
            : [],
        ),
    agentName: (agentId) => store.get().agents.find((agent) => agent.id === agentId)?.name,
    untitled: t('untitledTab'),
  });
  await followTabFacts(sharing, windowId);
  connectors.onServersChange((change) => {
    if (change.kind === 'tools') hub.announceListChanged(connectorServerKey(change.connectorId));
    else hub.redeclare();
  });
  pageTools.onChange((change) => {
    if (change.kind === 'tools') hub.announceListChanged(pageServerKey(change.origin));
    else hub.redeclare();
  });
  followOffered(store, () => hub.redeclare());

  return {
    windowId,
    version,
    local,
    store,
    tokens,
    sessionIds,
    chat,
    restored,
    guards,
    presence,
    connectors,
    pageTools,
    offers,
    hub,
    sharing,
    policy,
    brokerRefusal,
    followLocked: () => isLocked(policy.policy, 'followCurrentTab'),
  };
}

/**
 * What an agent is offered changed in Settings (browser access, "Offer … to …"): a server it is
 * offered now reaches its session at once, as a connector turned on does.
 */
function followOffered(store: SettingsStore, redeclare: () => void): void {
  store.subscribe((next, previous) => {
    if (offerChoicesChanged(previous.agents, next.agents)) redeclare();
  });
}

/**
 * Callers' tabs go back to the person when "Disconnect all" is pressed, and an agent's (and its
 * MCP clients') when the agent is removed.
 */
function followCallers(ownership: TabOwnership, store: SettingsStore, killSwitch: KillSwitch): void {
  killSwitch.onChange((engaged) => {
    if (engaged) ownership.clear();
  });
  let agents = new Set(store.get().agents.map((agent) => agent.id));
  store.subscribe((settings) => {
    const now = new Set(settings.agents.map((agent) => agent.id));
    for (const gone of agents) {
      if (now.has(gone)) continue;
      for (const caller of ownership.callers(gone)) ownership.forget(caller);
    }
    agents = now;
  });
}
