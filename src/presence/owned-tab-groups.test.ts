import { describe, expect, it } from 'vitest';
import { TabOwnership } from '../mcp-server/tab-ownership';
import { agentOf, OwnedTabGroups } from './owned-tab-groups';
import { AgentTabGroups, NO_GROUP, type AgentRef, type TabPlace } from './tab-groups';
import { fakeChrome } from './tab-groups-fixture';

const ADA = { id: 'agent-ada', name: 'Ada' };
const BOB = { id: 'agent-bob', name: 'Bob' };

function setUp(tabs: Record<number, Partial<TabPlace>>, connected: AgentRef[] = [ADA, BOB]) {
  // Chrome's events come after its calls answer, as they do in the browser.
  const chrome = fakeChrome(tabs, { later: true });
  const groups = new AgentTabGroups(chrome.port, { enabled: () => true });
  chrome.follow(groups);
  const ownership = new TabOwnership();
  const agents = new Map(connected.map((agent) => [agent.id, agent]));
  const sync = new OwnedTabGroups({ ownership, groups, agent: (id) => agents.get(id) });
  const group = (agent: AgentRef) => groups.groupOf(agent.id);
  return { chrome, groups, ownership, agents, sync, group };
}

describe('OwnedTabGroups', () => {
  it('puts a tab in its agent’s group when it becomes the agent’s, and takes it out when it stops being so', async () => {
    const { chrome, ownership, group } = setUp({ 1: {}, 2: {}, 3: {}, 4: {} });
    ownership.give(1, ADA.id);
    ownership.opened(2, ADA.id, false);
    ownership.opened(3, `${ADA.id}/mcp:inspector`, true);
    ownership.give(4, ADA.id);
    await chrome.settle();
    expect([1, 2, 3, 4].map(chrome.groupOf)).toEqual(Array(4).fill(group(ADA)));
    ownership.takeBack(1);
    ownership.forget(`${ADA.id}/mcp:inspector`);
    await chrome.settle();
    expect([1, 2, 3, 4].map(chrome.groupOf)).toEqual([NO_GROUP, group(ADA), NO_GROUP, group(ADA)]);
    ownership.clear();
    await chrome.settle();
    expect([1, 2, 3, 4].map(chrome.groupOf)).toEqual(Array(4).fill(NO_GROUP));
  });

  it('moves a tab given to another agent into that agent’s group, and it stays that agent’s', async () => {
    const { chrome, ownership, group } = setUp({ 1: {}, 2: {} });
    ownership.give(1, ADA.id);
    ownership.give(2, ADA.id);
    await chrome.settle();
    ownership.give(1, BOB.id);
    await chrome.settle();
    expect([chrome.groupOf(1), chrome.groupOf(2)]).toEqual([group(BOB), group(ADA)]);
    expect([ownership.ownerOf(1), ownership.currentOf(BOB.id)]).toEqual([BOB.id, 1]);
  });

  it('never takes its own moves for the user’s: a tab an action opened does not become the agent’s current tab', async () => {
    const { chrome, ownership, group } = setUp({ 1: {}, 2: {} });
    ownership.give(1, ADA.id);
    ownership.opened(2, ADA.id, false);
    await chrome.settle();
    expect(chrome.groupOf(2)).toBe(group(ADA));
    // Read as a drag into the group, grouping it would have given it, which makes it current.
    expect(ownership.currentOf(ADA.id)).toBe(1);
  });

  it('does not share the tab in front that an agent following it works in: Tabwright grouped it, not the user', async () => {
    const { chrome, groups, ownership, group } = setUp({ 1: {} });
    await groups.join(ADA, 1);
    await chrome.settle();
    expect([chrome.groupOf(1), ownership.ownerOf(1)]).toEqual([group(ADA), undefined]);
  });

  it('shares a tab the user drags into an agent’s group, and takes back one they drag out', async () => {
    const { chrome, ownership, group } = setUp({ 1: {}, 2: {} });
    ownership.give(1, ADA.id);
    await chrome.settle();
    chrome.drag(2, group(ADA)!);
    await chrome.settle();
    expect([ownership.ownerOf(2), ownership.currentOf(ADA.id)]).toEqual([ADA.id, 2]);
    chrome.drag(1);
    await chrome.settle();
    expect(ownership.tabsOf(ADA.id)).toEqual([2]);
    // Shared again with the button: back in the group, though the user had dragged it out.
    ownership.give(1, ADA.id);
    await chrome.settle();
    expect(chrome.groupOf(1)).toBe(group(ADA));
  });

  it('gives a tab dragged from one agent’s group into another’s to the other, and an MCP client’s to its agent', async () => {
    const { chrome, ownership, group } = setUp({ 1: {}, 2: {}, 3: {} });
    ownership.give(1, ADA.id);
    ownership.give(2, BOB.id);
    ownership.opened(3, `${ADA.id}/mcp:inspector`, true);
    await chrome.settle();
    chrome.drag(1, group(BOB)!);
    await chrome.settle();
    expect([ownership.ownerOf(1), ownership.tabsOf(ADA.id)]).toEqual([BOB.id, []]);
    // Already on Ada's side: moving it about within her group changes nothing.
    chrome.drag(3, group(ADA)!);
    await chrome.settle();
    expect(ownership.ownerOf(3)).toBe(`${ADA.id}/mcp:inspector`);
    chrome.drag(3);
    await chrome.settle();
    expect(ownership.ownerOf(3)).toBeUndefined();
  });

  it('leaves a tab the user moved to another window with its owner', async () => {
    const { chrome, ownership } = setUp({ 1: {}, 2: {} });
    ownership.give(1, ADA.id);
    ownership.give(2, ADA.id);
    await chrome.settle();
    chrome.toWindow(2, 7);
    await chrome.settle();
    expect(ownership.tabsOf(ADA.id)).toEqual([1, 2]);
  });

  it('makes no group for an agent that is not connected, and groups its tabs once it is', async () => {
    const { chrome, ownership, agents, sync, group } = setUp({ 1: {}, 2: {} }, []);
    ownership.give(1, ADA.id);
    ownership.opened(2, `${ADA.id}/mcp:inspector`, true);
    await chrome.settle();
    expect([chrome.groupOf(1), chrome.groupOf(2)]).toEqual([NO_GROUP, NO_GROUP]);
    agents.set(ADA.id, ADA);
    sync.regroup(ADA.id);
    await chrome.settle();
    expect([chrome.groupOf(1), chrome.groupOf(2)]).toEqual([group(ADA), group(ADA)]);
  });

  it('keeps the tabs of an agent whose group went when it disconnected', async () => {
    const { chrome, groups, ownership } = setUp({ 1: {} });
    ownership.give(1, ADA.id);
    await chrome.settle();
    await groups.dissolve(ADA.id);
    await chrome.settle();
    expect([chrome.groupOf(1), ownership.ownerOf(1)]).toEqual([NO_GROUP, ADA.id]);
  });
});

describe('agentOf', () => {
  it('is the agent itself, or the agent an MCP client reaches the panel through', () => {
    expect([agentOf('agent-ada'), agentOf('agent-ada/mcp:inspector')]).toEqual(['agent-ada', 'agent-ada']);
  });
});
