/**
 * A caller's tabs as a call sees them: which tab it works in, which it may name, what it is told
 * when it has none. With "Follow my current tab" on, the caller works in the tab the person has in
 * front, as agents did before they had tabs of their own.
 */
import type { TabInfo, ToolBrowser } from './browser-port';
import type { TabOwnership } from './tab-ownership';

export interface CallerTabs {
  /** The caller works in the tab the person has in front. */
  readonly follows: boolean;
  /** The tab page tools act in, or why there is none. */
  current(): Promise<TabInfo | { refusal: string }>;
  /** The caller's own tabs, in the order they became its own. */
  own(): number[];
  owns(tabId: number): boolean;
  /** The caller opened `tabId` (new_tab, or a tab its action opened); `current`: it works there now. */
  opened(tabId: number, current: boolean): void;
  /** The caller works in another of its own tabs; false when it is not its own. */
  switchTo(tabId: number): boolean;
  /** The caller closed one of its tabs. */
  closed(tabId: number): void;
}

/** Why a tab is not the caller's to touch, worded for whether it may open tabs of its own. */
export function notSharedText(tabId: number, label: string, actMode: boolean): string {
  return `Tab ${tabId} is not shared with you, so nothing of it was read or done. ${howToGetTab(label, actMode)}`;
}

function howToGetTab(label: string, actMode: boolean): string {
  const ask = `ask the user to share a tab with you (in Tabwright's panel: "Share this tab with ${label}")`;
  return actMode
    ? `Open a tab of your own with new_tab (it opens in the background), or ${ask}.`
    : `Tabwright is read-only now, so you cannot open one: ${ask}.`;
}

function noTabText(label: string, actMode: boolean, own: number[], closed: number | undefined): string {
  if (closed !== undefined) {
    const rest = own.length ? ` Your tabs: ${own.join(', ')}; switch_tab to one of them.` : ' You have no other tab.';
    return `The user closed tab ${closed}, the one you were working in, so nothing was done.${rest}${own.length ? '' : ` ${howToGetTab(label, actMode)}`}`;
  }
  if (own.length)
    return `You have not chosen which of your tabs to work in. Your tabs: ${own.join(', ')}; switch_tab to one.`;
  return `You have no tab of your own to work in, so nothing was done. ${howToGetTab(label, actMode)}`;
}

export interface CallerTabsOptions {
  caller: { id: string; label: string };
  ownership: TabOwnership | undefined;
  follows: boolean;
  browser: Pick<ToolBrowser, 'getTab' | 'activeTab'>;
  windowId: number;
  actMode(): boolean;
}

export function callerTabs(options: CallerTabsOptions): CallerTabs {
  const { caller, ownership, browser } = options;
  const follows = options.follows || !ownership;
  return {
    follows,
    async current() {
      if (follows || !ownership) {
        const tab = await browser.activeTab(options.windowId);
        return tab ?? { refusal: 'There is no active tab in this window. Open one with new_tab.' };
      }
      const id = ownership.currentOf(caller.id);
      const tab = id === undefined ? undefined : await browser.getTab(id);
      if (tab) return tab;
      if (id !== undefined) ownership.closed(id);
      const refusal = noTabText(
        caller.label,
        options.actMode(),
        ownership.tabsOf(caller.id),
        ownership.closedOf(caller.id),
      );
      return { refusal };
    },
    own: () => ownership?.tabsOf(caller.id) ?? [],
    owns: (tabId) => follows || (ownership?.owns(caller.id, tabId) ?? true),
    opened(tabId, current) {
      ownership?.opened(tabId, caller.id, current);
    },
    switchTo: (tabId) => follows || (ownership?.switchTo(caller.id, tabId) ?? true),
    closed(tabId) {
      ownership?.closedByOwner(tabId);
    },
  };
}
