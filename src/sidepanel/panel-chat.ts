/**
 * The chat side of the panel, wired in one place: history restored before agents connect, the
 * transcript and composer, the roster, and Settings → Agents (add, edit, remove). `panel.ts`
 * creates the model and the hub and hands them here.
 */
import type { TabSharing } from '../presence/tab-sharing';
import { AgentProfile } from '../shared/settings';
import type { SettingsStore } from '../shared/settings-store';
import type { SessionIdStore, StorageArea, TokenStore } from '../shared/stores';
import type { AgentHub } from './agent-hub';
import { needsReconnect } from './agent-input';
import { emptyChatText } from './empty-chat';
import type { ChatModel, QueueView, UserItem } from './chat-model';
import { h } from './dom';
import { HistoryStore, recordHistory, withRestoredQueue } from './history';
import { t } from './i18n';
import type { NewAgent } from './views/agent-form';
import { AgentsSettings } from './views/agents-settings';
import { Composer } from './views/composer';
import { ConnectionProblems } from './views/connection-problem';
import { Roster, statusText } from './views/roster';
import { ShareTabView } from './views/share-tab';
import { TranscriptView } from './views/transcript';

declare const __TABWRIGHT_TEST_BUILD__: boolean;

export interface RestoredChat {
  store: HistoryStore;
  draft: string;
  /** What each agent's outbox held when the panel closed, given back once the agents are added. */
  queue: QueueView;
}

/** Loads this window's transcript into the model (before any agent connects). */
export async function restoreChat(chat: ChatModel, local: StorageArea, windowId: number): Promise<RestoredChat> {
  const store = new HistoryStore(local, windowId);
  const loaded = await store.load();
  if (loaded.items.length) chat.restore(loaded.items);
  if (loaded.problem) chat.notice(loaded.problem, undefined, 'warning');
  return { store, draft: loaded.draft, queue: loaded.queue };
}

/** The services the chat side uses (a part of `PanelServices`). */
export interface ChatServices {
  windowId: number;
  chat: ChatModel;
  hub: AgentHub;
  restored: RestoredChat;
  tokens: TokenStore;
  sessionIds: SessionIdStore;
  local: StorageArea;
  store: SettingsStore;
  sharing: TabSharing;
  /** Why the organisation's policy forbids a broker, if it does. */
  brokerRefusal(url: string): string | undefined;
  /** Whether the organisation's policy turns "Follow my current tab" off. */
  followLocked?(): boolean;
}

export interface ChatMountOptions extends ChatServices {
  rosterRoot: HTMLElement;
  defaultUrl: string;
  /** Shows Settings (to edit an agent from its chip). */
  showSettings(): void;
  /** Whether the conversation is on screen, and bringing it back. */
  chatShown(): boolean;
  showChat(): void;
  /** Where a "permission waiting" bar goes when the conversation is not on screen. */
  mainRoot: HTMLElement;
  /** Opens an address an agent asked the user to visit, in a new tab of this window. */
  openUrl(url: string): Promise<void>;
  /** Makes the change a refused call's fix offers (the person pressed it). */
  applyFix(segmentId: string): Promise<void>;
}

export interface ChatUi {
  section: HTMLElement;
  composer: Composer;
  transcript: TranscriptView;
  addAgent(input: NewAgent): Promise<void>;
  /** Settings → Agents, refreshed. */
  agentsSection(): HTMLElement;
  refresh(): void;
  /** After agents are added: messages restored as queued are sent. */
  resendQueued(): void;
  flushHistory(): Promise<void>;
}

export function mountChat(options: ChatMountOptions): ChatUi {
  const { chat, hub } = options;
  options.rosterRoot.setAttribute('aria-label', t('agentsHeading'));
  // Test builds only: the render benchmark feeds updates straight into the model.
  if (__TABWRIGHT_TEST_BUILD__) Object.assign(globalThis, { tabwrightChat: chat });
  const transcript = new TranscriptView(chat, options.openUrl, (id) => void options.applyFix(id));
  let draft = options.restored.draft;
  const history = recordHistory(
    chat,
    options.restored.store,
    () => draft,
    undefined,
    () => withRestoredQueue(options.restored.queue, chat.queue()),
  );
  // Beside the message box, so an agent just added can be given the tab in front at once.
  const shareTab = new ShareTabView(options.sharing);
  const composer = new Composer({
    initialDraft: draft,
    onSend: (text) => {
      hub.send(text, []);
      transcript.pinToBottom();
    },
    onStop: () => void hub.stopAll(),
    onRetry: () => {
      const last = chat.lastUser();
      if (!last) return;
      hub.send(last.text, last.to);
      transcript.pinToBottom();
    },
    onClear: () => {
      chat.clear();
      composer.focus();
    },
    onDraft: (text) => {
      draft = text;
      history.changed();
    },
    header: shareTab.element,
    commands: () => hub.commands(),
    agentNames: () =>
      options.store
        .get()
        .agents.filter((agent) => agent.enabled)
        .map((agent) => agent.name),
  });
  const section = h(
    'section',
    { className: 'chat', 'aria-label': t('chat') },
    transcript.pinned,
    transcript.element,
    composer.element,
  );

  const addAgent = async (input: NewAgent) => {
    const profile = AgentProfile.parse({ id: crypto.randomUUID(), ...input });
    await options.tokens.set(profile.id, input.token);
    await options.store.update((settings) => ({ ...settings, agents: [...settings.agents, profile] }));
    await hub.add(profile);
  };

  const agentsSettings = new AgentsSettings({
    agents: () => options.store.get().agents,
    statusOf: (id) => {
      const view = hub.views().find((candidate) => candidate.profile.id === id);
      return view ? (view.detail ?? statusText(view.status)) : '';
    },
    hasToken: async (id) => (await options.tokens.get(id)) !== '',
    defaultUrl: options.defaultUrl,
    brokerRefusal: options.brokerRefusal,
    ...(options.followLocked ? { followLocked: options.followLocked } : {}),
    add: addAgent,
    save: async (id, input) => {
      const before = options.store.get().agents.find((agent) => agent.id === id);
      if (!before) return;
      const { token, ...fields } = input;
      const after: AgentProfile = { ...before, ...fields };
      if (typeof token === 'object') await options.tokens.set(id, token.set);
      else if (token === 'forget') await options.tokens.remove(id);
      // A session belongs to its broker: another broker would only refuse to resume it.
      if (before.url !== after.url) await options.sessionIds.set(options.windowId, id, undefined);
      await options.store.update((settings) => ({
        ...settings,
        agents: settings.agents.map((a) => (a.id === id ? after : a)),
      }));
      await hub.update(after, needsReconnect(before, after, token));
      chat.notice(t('agentSaved', after.name), id);
    },
    remove: async (id) => {
      const removed = options.store.get().agents.find((agent) => agent.id === id);
      // Forgotten in storage first: once its chip is gone, closing the panel cannot bring it back.
      await options.store.update((settings) => ({ ...settings, agents: settings.agents.filter((a) => a.id !== id) }));
      await options.tokens.remove(id);
      await options.sessionIds.set(options.windowId, id, undefined);
      await options.local.remove([`permissions:${id}`]);
      void hub.remove(id);
      if (removed) chat.notice(t('agentRemoved', removed.name));
    },
  });

  const roster = new Roster(
    options.rosterRoot,
    {
      reconnect: (id) => hub.reconnect(id),
      setMode: (id, modeId) => void hub.setMode(id, modeId),
      setConfigOption: (id, configId, value) => void hub.setConfigOption(id, configId, value),
      endSession: (id) => void hub.endSession(id),
      disconnect: (id) => hub.disconnect(id),
      signIn: (id, methodId) => hub.signIn(id, methodId),
      edit: (id) => {
        options.showSettings();
        void agentsSettings.edit(id);
      },
    },
    {
      of: (id) => options.sharing.tabsOf(id),
      takeBack: (tabId) => options.sharing.takeBack(tabId),
      ...(options.followLocked ? { followLocked: options.followLocked } : {}),
    },
  );
  options.sharing.onChange(() => {
    shareTab.render();
    roster.refreshTabs();
  });
  const problems = new ConnectionProblems({
    edit: (id) => {
      options.showSettings();
      void agentsSettings.edit(id);
    },
    reconnect: (id) => hub.reconnect(id),
    copy: (text) => navigator.clipboard.writeText(text),
  });
  options.rosterRoot.after(problems.element);
  // A permission request blocks its agent: when Settings hide the conversation, say so above them.
  const waiting = new Map<string, string>();
  const waitingBar = h('div', { className: 'permission-waiting', role: 'status', hidden: true });
  options.mainRoot.before(waitingBar);
  const showWaiting = () => {
    const shown = waiting.size > 0 && !options.chatShown();
    waitingBar.hidden = !shown;
    if (!shown) return waitingBar.replaceChildren();
    const [first] = waiting;
    waitingBar.replaceChildren(
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            options.showChat();
            transcript.focusPermission(first![0]);
          },
        },
        t('permissionWaiting', first![1]),
      ),
    );
  };
  chat.subscribe((change) => {
    if (change.type !== 'segment') return;
    const { segment, item } = change;
    if (segment.kind !== 'permission' && segment.kind !== 'elicitation') return;
    if (chat.isAwaitingAnswer(segment.id)) {
      const heading =
        segment.kind === 'permission'
          ? t('permissionHeading', item.agentName, segment.title)
          : t('elicitHeading', item.agentName);
      waiting.set(segment.id, heading);
    } else waiting.delete(segment.id);
    showWaiting();
  });

  const refresh = () => {
    showWaiting();
    roster.render(hub.views(), options.store.get().actMode);
    shareTab.render();
    problems.render(hub.views());
    composer.setBusy(hub.busy());
    composer.setCanRetry(chat.lastUser() !== undefined);
    const empty = emptyChatText(
      hub.views().map((view) => ({
        name: view.profile.name,
        status: view.status,
        enabled: view.profile.enabled,
        agentInfoName: view.agentInfoName,
      })),
    );
    transcript.setEmptyText(t(empty.key, ...empty.substitutions));
    agentsSettings.refresh();
  };
  hub.onChange(refresh);
  chat.subscribe((change) => {
    if (change.type === 'added' || change.type === 'reset' || change.type === 'segment') refresh();
  });

  return {
    section,
    composer,
    transcript,
    addAgent,
    agentsSection: () => {
      agentsSettings.refresh();
      return agentsSettings.element;
    },
    refresh,
    resendQueued: () => {
      const users = new Map(
        chat.items.filter((item) => item.kind === 'user').map((item) => [item.id, item as UserItem]),
      );
      for (const [agentId, ids] of Object.entries(options.restored.queue)) {
        hub.requeue(
          agentId,
          ids.flatMap((id) => users.get(id) ?? []),
        );
      }
      // Given back once: from now on the outboxes hold them.
      options.restored.queue = {};
    },
    flushHistory: () => history.flush(),
  };
}
