/**
 * Chrome's tabs and groups in memory, for the tab-group tests. Like Chrome, it reports a tab
 * changing group as an event, whoever moved it, and removes a group its last tab left. Events
 * reach the bookkeeping (set with `follow`) while the call that moved the tab is still going, or,
 * with `later`, after it answered, as Chrome's do.
 */
import { NO_GROUP, type AgentTabGroups, type TabGroupPort, type TabPlace } from './tab-groups';

export function fakeChrome(tabs: Record<number, Partial<TabPlace>>, options: { later?: boolean } = {}) {
  const places = new Map<number, TabPlace>(
    Object.entries(tabs).map(([id, p]) => [Number(id), { windowId: 1, groupId: NO_GROUP, pinned: false, ...p }]),
  );
  const styles = new Map<number, { title: string; colour: string }>();
  const calls: string[] = [];
  let nextGroup = 100;
  let book: AgentTabGroups | undefined;
  const report = (event: () => void) => (options.later ? void setTimeout(event, 0) : event());
  const move = (tabId: number, groupId: number) => {
    const place = places.get(tabId)!;
    const left = place.groupId;
    place.groupId = groupId;
    report(() => book?.tabRegrouped(tabId, groupId));
    const empty = left !== NO_GROUP && ![...places.values()].some((p) => p.groupId === left);
    if (empty) report(() => book?.groupRemoved(left));
  };
  const port: TabGroupPort = {
    async place(tabId) {
      const place = places.get(tabId);
      return place && { ...place };
    },
    async group(tabId, groupId) {
      calls.push(`group ${tabId} ${groupId ?? 'new'}`);
      const id = groupId ?? nextGroup++;
      move(tabId, id);
      return id;
    },
    async style(groupId, title, colour) {
      calls.push(`style ${groupId} ${title}`);
      styles.set(groupId, { title, colour });
    },
    async tabsIn(groupId) {
      return [...places].flatMap(([id, p]) => (p.groupId === groupId ? [id] : []));
    },
    async ungroup(tabIds) {
      calls.push(`ungroup ${tabIds.join(',')}`);
      for (const id of tabIds) move(id, NO_GROUP);
    },
  };
  return {
    port,
    places,
    styles,
    calls,
    follow(groups: AgentTabGroups) {
      book = groups;
    },
    /** The user drags a tab out of its group (or into another). */
    drag(tabId: number, groupId = NO_GROUP) {
      move(tabId, groupId);
    },
    /** The user moves a tab to another window, where it is in no group. */
    toWindow(tabId: number, windowId: number) {
      places.get(tabId)!.windowId = windowId;
      move(tabId, NO_GROUP);
    },
    groupOf: (tabId: number) => places.get(tabId)?.groupId,
    /** Lets events reported `later` arrive, and whatever they set going settle. */
    settle: () => new Promise((resolve) => setTimeout(resolve, 5)),
  };
}
