import { describe, expect, it } from 'vitest';
import { colourFor, GROUP_COLOURS } from './colours';
import {
  AgentTabGroups,
  NO_GROUP,
  type GroupMemory,
  type PersonMove,
  type TabGroupPort,
  type TabPlace,
} from './tab-groups';
import { fakeChrome } from './tab-groups-fixture';

function memory(initial: number[] = []): GroupMemory & { saved: number[] } {
  const m = {
    saved: initial,
    load: async () => m.saved,
    save: async (ids: number[]) => void (m.saved = ids),
  };
  return m;
}

const ADA = { id: 'agent-ada', name: 'Ada' };
const BOB = { id: 'agent-bob', name: 'Bob' };

function setUp(tabs: Record<number, Partial<TabPlace>>, options: { enabled?: () => boolean } = {}) {
  const chrome = fakeChrome(tabs);
  const remembered = memory();
  const groups = new AgentTabGroups(chrome.port, { enabled: options.enabled ?? (() => true), memory: remembered });
  chrome.follow(groups);
  return { chrome, groups, remembered };
}

describe('AgentTabGroups', () => {
  it('puts the tabs an agent works in into one group named after it, in its colour', async () => {
    const { chrome, groups, remembered } = setUp({ 1: {}, 2: {} });
    await groups.join(ADA, 1);
    await groups.join(ADA, 2);
    await groups.join(ADA, 1);
    const group = groups.groupOf(ADA.id)!;
    expect(chrome.groupOf(1)).toBe(group);
    expect(chrome.groupOf(2)).toBe(group);
    expect(chrome.styles.get(group)).toEqual({ title: 'Ada', colour: colourFor(ADA.id) });
    expect(chrome.calls).toEqual([`group 1 new`, `style ${group} Ada`, `group 2 ${group}`]);
    expect(remembered.saved).toEqual([group]);
  });

  it('gives each agent a group of its own', async () => {
    const { chrome, groups } = setUp({ 1: {}, 2: {} });
    await Promise.all([groups.join(ADA, 1), groups.join(BOB, 2)]);
    expect(groups.groupOf(ADA.id)).not.toBe(groups.groupOf(BOB.id));
    expect(chrome.styles.get(groups.groupOf(BOB.id)!)?.title).toBe('Bob');
  });

  it('makes one group, not two, when calls overlap', async () => {
    const { chrome, groups } = setUp({ 1: {}, 2: {}, 3: {} });
    await Promise.all([groups.join(ADA, 1), groups.join(ADA, 2), groups.join(ADA, 3)]);
    expect(new Set([1, 2, 3].map(chrome.groupOf)).size).toBe(1);
    expect(chrome.calls.filter((c) => c.endsWith('new'))).toHaveLength(1);
  });

  it('does not put back a tab the user took out, until they put it back themselves', async () => {
    const { chrome, groups } = setUp({ 1: {}, 2: {} });
    await groups.join(ADA, 1);
    await groups.join(ADA, 2);
    const group = groups.groupOf(ADA.id)!;
    chrome.drag(2);
    await groups.join(ADA, 2);
    expect(chrome.groupOf(2)).toBe(NO_GROUP);
    // Put back by the user: it belongs to the group again, so later work regroups it like any other.
    chrome.drag(2, group);
    await groups.dissolve(ADA.id);
    expect(chrome.groupOf(2)).toBe(NO_GROUP);
    await groups.join(ADA, 2);
    expect(chrome.groupOf(2)).toBe(groups.groupOf(ADA.id));
    expect(chrome.groupOf(2)).not.toBe(NO_GROUP);
  });

  it('leaves tabs in the user’s own groups, pinned tabs and tabs in other windows where they are', async () => {
    const { chrome, groups } = setUp({ 1: {}, 2: { groupId: 7 }, 3: { pinned: true }, 4: { windowId: 2 } });
    await groups.join(ADA, 1);
    await groups.join(ADA, 2);
    await groups.join(ADA, 3);
    await groups.join(ADA, 4);
    expect([2, 3, 4].map(chrome.groupOf)).toEqual([7, NO_GROUP, NO_GROUP]);
    expect(chrome.calls.filter((c) => c.startsWith('group'))).toEqual(['group 1 new']);
  });

  it('dissolves an agent’s group (its tabs stay open) and keeps the other agent’s', async () => {
    const { chrome, groups, remembered } = setUp({ 1: {}, 2: {}, 3: {} });
    await groups.join(ADA, 1);
    await groups.join(ADA, 2);
    await groups.join(BOB, 3);
    const bob = groups.groupOf(BOB.id);
    await groups.dissolve(ADA.id);
    expect([1, 2].map(chrome.groupOf)).toEqual([NO_GROUP, NO_GROUP]);
    expect(chrome.groupOf(3)).toBe(bob);
    expect(groups.agentIds()).toEqual([BOB.id]);
    expect(remembered.saved).toEqual([bob]);
    // Ungrouping its own tabs is not the user taking them out: working there again regroups them.
    await groups.join(ADA, 1);
    expect(chrome.groupOf(1)).not.toBe(NO_GROUP);
  });

  it('dissolves every group at once and makes none while turned off', async () => {
    let on = true;
    const { chrome, groups } = setUp({ 1: {}, 2: {} }, { enabled: () => on });
    await groups.join(ADA, 1);
    await groups.join(BOB, 2);
    on = false;
    await groups.dissolveAll();
    await groups.join(ADA, 1);
    expect([1, 2].map(chrome.groupOf)).toEqual([NO_GROUP, NO_GROUP]);
    expect(groups.agentIds()).toEqual([]);
  });

  it('starts a new group after the user closed the old one, and forgets closed tabs', async () => {
    const { chrome, groups } = setUp({ 1: {}, 2: {} });
    await groups.join(ADA, 1);
    const old = groups.groupOf(ADA.id)!;
    chrome.places.delete(1);
    groups.tabClosed(1);
    groups.groupRemoved(old);
    expect(groups.groupOf(ADA.id)).toBeUndefined();
    await groups.join(ADA, 2);
    expect(groups.groupOf(ADA.id)).not.toBe(old);
    expect(chrome.styles.get(groups.groupOf(ADA.id)!)?.title).toBe('Ada');
  });

  it('renames the group when the agent is renamed', async () => {
    const { chrome, groups } = setUp({ 1: {} });
    await groups.join(ADA, 1);
    await groups.join({ ...ADA, name: 'Ada Two' }, 1);
    expect(chrome.styles.get(groups.groupOf(ADA.id)!)?.title).toBe('Ada Two');
  });

  it('ungroups every tab it grouped in one call when the panel closes', async () => {
    const { chrome, groups } = setUp({ 1: {}, 2: {}, 3: {} });
    await groups.join(ADA, 1);
    await groups.join(BOB, 2);
    groups.abandon();
    expect(chrome.calls.at(-1)).toBe('ungroup 1,2');
    expect([1, 2].map(chrome.groupOf)).toEqual([NO_GROUP, NO_GROUP]);
  });

  it('cleans up the groups a closed panel left behind', async () => {
    const chrome = fakeChrome({ 1: { groupId: 55 }, 2: { groupId: 55 }, 3: { groupId: 9 } });
    const remembered = memory([55]);
    const groups = new AgentTabGroups(chrome.port, { enabled: () => true, memory: remembered });
    await groups.cleanUpLeftovers();
    expect([1, 2, 3].map(chrome.groupOf)).toEqual([NO_GROUP, NO_GROUP, 9]);
    expect(remembered.saved).toEqual([]);
  });

  it('survives Chrome refusing (a tab being dragged): the error is reported, the next call works', async () => {
    const chrome = fakeChrome({ 1: {} });
    const errors: unknown[] = [];
    let refuse = true;
    const port: TabGroupPort = {
      ...chrome.port,
      group: (tabId, groupId) =>
        refuse ? Promise.reject(new Error('Tabs cannot be edited right now')) : chrome.port.group(tabId, groupId),
    };
    const groups = new AgentTabGroups(port, { enabled: () => true, onError: (e) => errors.push(e) });
    await groups.join(ADA, 1);
    expect(errors).toHaveLength(1);
    refuse = false;
    await groups.join(ADA, 1);
    expect(chrome.groupOf(1)).not.toBe(NO_GROUP);
  });
});

describe.each([
  ['while the call that moved it runs', false],
  ['after the call answered', true],
])('AgentTabGroups with Chrome reporting moves %s', (_when, later) => {
  function watched(tabs: Record<number, Partial<TabPlace>>) {
    const chrome = fakeChrome(tabs, { later });
    const groups = new AgentTabGroups(chrome.port, { enabled: () => true });
    chrome.follow(groups);
    const moves: PersonMove[] = [];
    groups.onPersonMove((move) => moves.push(move));
    return { chrome, groups, moves };
  }

  it('reports the user’s moves into and out of an agent’s group, and none of its own', async () => {
    const { chrome, groups, moves } = watched({ 1: {}, 2: {}, 3: {} });
    await groups.adopt(ADA, 1);
    await groups.join(ADA, 3);
    await groups.adopt(BOB, 3);
    await chrome.settle();
    expect(moves).toEqual([]);
    chrome.drag(2, groups.groupOf(ADA.id)!);
    await chrome.settle();
    chrome.drag(1);
    await chrome.settle();
    chrome.drag(2, groups.groupOf(BOB.id)!);
    await chrome.settle();
    expect(moves).toEqual([
      { tabId: 2, from: undefined, into: ADA.id, otherWindow: false },
      { tabId: 1, from: ADA.id, into: undefined, otherWindow: false },
      { tabId: 2, from: ADA.id, into: BOB.id, otherWindow: false },
    ]);
  });

  it('takes an adopted tab out of another agent’s group, never out of the user’s own', async () => {
    const { chrome, groups, moves } = watched({ 1: {}, 2: { groupId: 7 } });
    await groups.adopt(ADA, 1);
    await groups.adopt(BOB, 1);
    await groups.adopt(BOB, 2);
    await chrome.settle();
    expect([chrome.groupOf(1), chrome.groupOf(2)]).toEqual([groups.groupOf(BOB.id), 7]);
    expect(moves).toEqual([]);
  });

  it('puts back a tab the user dragged out when it is adopted again, but not when a follower works in it', async () => {
    const { chrome, groups } = watched({ 1: {}, 2: {} });
    await groups.adopt(ADA, 1);
    await groups.adopt(ADA, 2);
    chrome.drag(2);
    await chrome.settle();
    await groups.join(ADA, 2);
    expect(chrome.groupOf(2)).toBe(NO_GROUP);
    await groups.adopt(ADA, 2);
    expect(chrome.groupOf(2)).toBe(groups.groupOf(ADA.id));
  });

  it('takes a tab that is no longer the agent’s out of its group, and leaves other groups alone', async () => {
    const { chrome, groups, moves } = watched({ 1: {}, 2: {}, 3: { groupId: 7 } });
    await groups.adopt(ADA, 1);
    await groups.adopt(ADA, 2);
    await groups.leave(1);
    await groups.leave(3);
    await chrome.settle();
    expect([1, 2, 3].map(chrome.groupOf)).toEqual([NO_GROUP, groups.groupOf(ADA.id), 7]);
    expect(moves).toEqual([]);
  });

  it('says when a tab left the group for another window', async () => {
    const { chrome, groups, moves } = watched({ 1: {}, 2: {} });
    await groups.adopt(ADA, 1);
    await groups.adopt(ADA, 2);
    chrome.toWindow(2, 9);
    await chrome.settle();
    expect(moves).toEqual([{ tabId: 2, from: ADA.id, into: undefined, otherWindow: true }]);
  });

  it('does not report the tabs it ungroups when an agent’s group goes', async () => {
    const { chrome, groups, moves } = watched({ 1: {}, 2: {} });
    await groups.adopt(ADA, 1);
    await groups.adopt(ADA, 2);
    await groups.dissolve(ADA.id);
    await chrome.settle();
    expect(moves).toEqual([]);
  });
});

describe('colourFor', () => {
  it('is one of Chrome’s group colours and the same for the same agent every time', () => {
    expect(GROUP_COLOURS).toContain(colourFor('x'));
    expect(colourFor('agent-ada')).toBe(colourFor('agent-ada'));
    const spread = new Set(Array.from({ length: 50 }, (_, i) => colourFor(`agent-${i}`)));
    expect(spread.size).toBeGreaterThan(5);
  });
});
