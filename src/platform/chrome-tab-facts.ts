/**
 * Chrome's tabs as the panel's tab sharing needs them: which tab is in front of the panel's window,
 * and each tab's title and address as they change. Only Chrome's events and lookups live here.
 */
import type { TabFacts, TabSharing } from '../presence/tab-sharing';

function factsOf(tab: chrome.tabs.Tab): TabFacts | undefined {
  return tab.id === undefined ? undefined : { id: tab.id, title: tab.title, url: tab.url || tab.pendingUrl };
}

export async function followTabFacts(sharing: TabSharing, windowId: number): Promise<void> {
  const front = async () => {
    const [tab] = await chrome.tabs.query({ active: true, windowId }).catch(() => []);
    sharing.frontIs(tab && factsOf(tab));
  };
  chrome.tabs.onActivated.addListener((info) => {
    if (info.windowId === windowId) void front();
  });
  // A tab that leaves or joins the window may change which tab is in front there.
  chrome.tabs.onAttached.addListener(() => void front());
  chrome.tabs.onDetached.addListener(() => void front());
  chrome.tabs.onUpdated.addListener((_tabId, change, tab) => {
    if (change.title === undefined && change.url === undefined && change.status === undefined) return;
    const facts = factsOf(tab);
    if (!facts) return;
    if (tab.active && tab.windowId === windowId) sharing.frontIs(facts);
    else sharing.seen(facts);
  });
  chrome.tabs.onRemoved.addListener((tabId) => sharing.gone(tabId));
  for (const tab of await chrome.tabs.query({}).catch(() => [])) {
    const facts = factsOf(tab);
    if (facts) sharing.seen(facts);
  }
  await front();
}
