/**
 * `TabGroupPort` over `chrome.tabs` and `chrome.tabGroups`, Chrome's tab and group events handed
 * to the bookkeeping, and the panel's memory of the groups it made (session storage, per window).
 */
import type { StorageArea } from '../shared/stores';
import type { AgentTabGroups, GroupMemory, TabGroupPort } from '../presence/tab-groups';

export function chromeTabGroups(): TabGroupPort {
  return {
    async place(tabId) {
      const tab = await chrome.tabs.get(tabId).catch(() => undefined);
      return tab && { windowId: tab.windowId, groupId: tab.groupId, pinned: tab.pinned };
    },
    async group(tabId, groupId) {
      if (groupId !== undefined) return chrome.tabs.group({ tabIds: tabId, groupId });
      // A new group goes where the tab is: Chrome's default, the panel's window, would pull the tab
      // out of a window of its own (an agent's).
      const { windowId } = await chrome.tabs.get(tabId);
      return chrome.tabs.group({ tabIds: tabId, createProperties: { windowId } });
    },
    async style(groupId, title, color) {
      await chrome.tabGroups.update(groupId, { title, color });
    },
    async tabsIn(groupId) {
      const tabs = await chrome.tabs.query({ groupId }).catch(() => []);
      return tabs.flatMap((tab) => (tab.id === undefined ? [] : [tab.id]));
    },
    async ungroup(tabIds) {
      await chrome.tabs.ungroup(tabIds as [number, ...number[]]);
    },
  };
}

/** Hands Chrome's events to the bookkeeping: a tab changing group, a tab closing, a group going. */
export function followTabGroupEvents(groups: AgentTabGroups): void {
  chrome.tabs.onUpdated.addListener((tabId, change) => {
    if (change.groupId !== undefined) groups.tabRegrouped(tabId, change.groupId);
  });
  chrome.tabs.onRemoved.addListener((tabId) => groups.tabClosed(tabId));
  chrome.tabGroups.onRemoved.addListener((group) => groups.groupRemoved(group.id));
}

export function storedGroupMemory(area: StorageArea, windowId: number): GroupMemory {
  const key = `agentGroups:${windowId}`;
  return {
    async load() {
      const { [key]: stored } = await area.get([key]);
      return Array.isArray(stored) ? stored.filter((id): id is number => typeof id === 'number') : [];
    },
    save: (groupIds) => area.set({ [key]: groupIds }),
  };
}
