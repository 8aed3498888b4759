/**
 * Boots the side panel for its window: loads settings, builds the tool servers and gates, starts
 * one connection per agent and mounts the views.
 */
import { messageWithCode } from './code-text';
import { h } from './dom';
import { localise, t } from './i18n';
import { mountChat } from './panel-chat';
import { offerGateFixes } from './panel-fixes';
import { buildPanelServices } from './panel-services';
import { agentForm, type NewAgent } from './views/agent-form';
import { roomSettingsSection } from './views/room-settings';
import { settingsView } from './views/settings';
import { settingsPage } from './views/settings-page';

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
  const promptsRoot = document.getElementById('prompts')!;
  const services = await buildPanelServices(promptsRoot);
  const { store, chat, hub, guards, presence, connectors, pageTools, offers, version, windowId } = services;
  const settings = () => store.get();

  const main = document.getElementById('main')!;
  const defaultUrl = await suggestedBrokerUrl();
  let showingSettings = false;
  const chatUi = mountChat({
    ...services,
    rosterRoot: document.getElementById('roster')!,
    defaultUrl,
    showSettings: () => {
      showingSettings = true;
      render();
    },
    chatShown: () => !showingSettings && settings().agents.length > 0,
    showChat: () => {
      showingSettings = false;
      render();
    },
    mainRoot: main,
    openUrl: async (url) => void (await chrome.tabs.create({ url, windowId, active: true })),
    applyFix: offerGateFixes({ chat, guards, sharing: services.sharing, store }),
  });
  const addAgent = async (input: NewAgent) => {
    const first = settings().agents.length === 0;
    await chatUi.addAgent(input);
    render();
    if (first) chatUi.composer.focus();
  };
  const agentsSection = chatUi.agentsSection;
  const settingsPanel = () =>
    settingsView(
      guards.settingsActions({
        offers,
        agentsSection,
        reconnect: (agentId) => {
          const profile = settings().agents.find((a) => a.id === agentId);
          if (profile) void hub.add(profile).then(render);
        },
        openAudit: () => {
          main.replaceChildren(guards.auditView(render));
          // Settings was scrolled down to the button: the log opens at its top, where the newest entry is.
          main.scrollTop = 0;
        },
        watchOffers: (redraw) => {
          const stops = [connectors.onServersChange(redraw), pageTools.onChange(redraw)];
          return () => stops.forEach((stop) => stop());
        },
        changed: () => chatUi.refresh(),
      }),
    );

  const render = () => {
    chatUi.refresh();
    document.getElementById('open-settings')!.setAttribute('aria-pressed', String(showingSettings));
    if (settings().agents.length === 0) {
      main.replaceChildren(
        h(
          'section',
          { className: 'first-run', 'aria-labelledby': 'first-run-heading' },
          h('h2', { id: 'first-run-heading' }, t('firstRunHeading')),
          h('p', {}, ...messageWithCode('firstRunIntro', { code: 'npm run broker' })),
          agentForm({
            defaultUrl,
            takenNames: () => [],
            brokerRefusal: services.brokerRefusal,
            followLocked: services.followLocked,
            onSubmit: addAgent,
          }),
        ),
      );
      return;
    }
    if (showingSettings) {
      main.replaceChildren(
        settingsPage([
          settingsPanel(),
          presence.section(),
          roomSettingsSection({
            settings,
            save: (change) => store.update((current) => ({ ...current, ...change })),
          }),
          connectors.section(),
          pageTools.section(),
        ]),
      );
      return;
    }
    // Put back only when it was taken out: a scroller put back starts at the top, so the
    // transcript is returned to where the person was reading.
    if (main.childElementCount !== 1 || main.firstElementChild !== chatUi.section) {
      main.replaceChildren(chatUi.section);
      chatUi.transcript.restoreScroll();
    }
  };

  // A policy Chrome reloads shows at once: locked switches, the keys read.
  services.policy.subscribe(() => (showingSettings ? render() : chatUi.refresh()));

  document.getElementById('open-settings')!.addEventListener('click', () => {
    showingSettings = !showingSettings;
    render();
  });
  const disconnectAll = () => {
    hub.disconnectAll();
    guards.disconnected();
    chat.notice(t('disconnectedAll'));
  };
  const disconnectAllButton = document.getElementById('disconnect-all')!;
  disconnectAllButton.addEventListener('click', disconnectAll);
  // Offered only while there is something to disconnect: a red button on a first run only alarms.
  const offerDisconnectAll = () => {
    disconnectAllButton.hidden = !hub
      .views()
      .some((view) => view.status === 'connected' || view.status === 'unresponsive');
  };
  hub.onChange(offerDisconnectAll);
  offerDisconnectAll();
  guards.followOtherPanels(disconnectAll);
  promptsRoot.before(
    guards.banner(
      () => settings().agents,
      (id) => hub.reconnect(id),
    ),
  );
  document.getElementById('version')!.textContent = `v${version}`;
  // The view is drawn once, before the agents start: a click on Settings while they connect opens
  // it for good, and nothing typed there is wiped by a late redraw (their state updates in place).
  render();
  for (const profile of settings().agents) await hub.add(profile);
  chatUi.resendQueued();
  chatUi.refresh();
}
