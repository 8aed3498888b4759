/**
 * With tab groups on, an agent's group is its set of tabs, both ways. A tab that becomes the
 * agent's (or one of its MCP clients') joins the agent's group, and leaves it when it stops being
 * theirs; a tab the user drags into the group is shared with the agent, and one they drag out of
 * it is taken back. A tab the user moves to another window stays the agent's: a group cannot
 * follow a tab there, and moving a tab is not taking it.
 */
import type { OwnershipChange, TabOwnership } from '../mcp-server/tab-ownership';
import type { AgentRef, AgentTabGroups, PersonMove } from './tab-groups';

/** The agent a caller belongs to: itself, or the agent an MCP client reaches the panel through. */
export function agentOf(caller: string): string {
  const at = caller.indexOf('/mcp:');
  return at < 0 ? caller : caller.slice(0, at);
}

export interface OwnedTabGroupsOptions {
  ownership: TabOwnership;
  groups: Pick<AgentTabGroups, 'adopt' | 'leave' | 'onPersonMove'>;
  /** The agent as its group names it, while it may have a group (it is connected); read on every change. */
  agent(agentId: string): AgentRef | undefined;
}

export class OwnedTabGroups {
  constructor(private readonly options: OwnedTabGroupsOptions) {
    options.ownership.onChange((change) => this.#owned(change));
    options.groups.onPersonMove((move) => this.#moved(move));
  }

  /** Puts every tab of the agent and its clients in its group: it connected, or groups were turned on. */
  regroup(agentId: string): void {
    const { ownership } = this.options;
    for (const caller of ownership.callers(agentId)) {
      if (agentOf(caller) !== agentId) continue;
      for (const tabId of ownership.tabsOf(caller)) this.#adopt(caller, tabId);
    }
  }

  #adopt(caller: string, tabId: number): void {
    const agent = this.options.agent(agentOf(caller));
    if (agent) void this.options.groups.adopt(agent, tabId);
  }

  #owned(change: OwnershipChange): void {
    const { groups } = this.options;
    switch (change.kind) {
      case 'given':
      case 'opened':
        return this.#adopt(change.caller, change.tabId);
      case 'taken':
      case 'closed':
        return void groups.leave(change.tabId);
      case 'forgotten':
      case 'cleared':
        for (const tabId of change.tabIds) void groups.leave(tabId);
        return;
      case 'switched':
        return;
    }
  }

  #moved(move: PersonMove): void {
    const { ownership } = this.options;
    const owner = ownership.ownerOf(move.tabId);
    const ownedBy = owner === undefined ? undefined : agentOf(owner);
    if (move.into !== undefined) {
      // Dragged into a group: the agent's now, taken from whoever had it (unless it already was the agent's side's).
      if (ownedBy !== move.into) ownership.give(move.tabId, move.into);
      return;
    }
    if (move.from !== undefined && ownedBy === move.from && !move.otherWindow) ownership.takeBack(move.tabId);
  }
}
