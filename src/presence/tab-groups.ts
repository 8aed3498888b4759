/**
 * The agents' tab groups: one per agent, named after it, in its colour. An agent's group holds its
 * own tabs (`adopt`, `leave`, driven by who owns which tab) and, for an agent that follows the tab
 * in front, the tabs it works in (`join`); the group goes when the agent disconnects or the user
 * turns groups off. What the user does wins: a tab they take out of the group is not put back by
 * working in it, and a tab they keep in a group of their own, or pinned, is left where it is. Moves
 * the user makes are reported (`onPersonMove`); Tabwright's own are recorded, so they never are.
 * Chrome is behind `TabGroupPort`.
 */
import { colourFor, type GroupColour } from './colours';
import { GroupMoves, NEW_GROUP, NO_GROUP } from './group-moves';

export { NO_GROUP };

export interface TabPlace {
  windowId: number;
  groupId: number;
  pinned: boolean;
}

export interface TabGroupPort {
  /** Where the tab is, or undefined when it is gone. */
  place(tabId: number): Promise<TabPlace | undefined>;
  /** Puts the tab in `groupId`, or in a new group when that is undefined; resolves with the group's id. */
  group(tabId: number, groupId: number | undefined): Promise<number>;
  style(groupId: number, title: string, colour: GroupColour): Promise<void>;
  /** The tabs in a group (none when it is gone). */
  tabsIn(groupId: number): Promise<number[]>;
  ungroup(tabIds: number[]): Promise<void>;
}

/** The groups this panel made, kept where a reloaded panel finds them to clean up. */
export interface GroupMemory {
  load(): Promise<number[]>;
  save(groupIds: number[]): Promise<void>;
}

interface AgentGroup {
  groupId: number | undefined;
  windowId: number | undefined;
  styled: string;
  /** Tabs in the group: the ones this panel put there and the ones the user dragged in. */
  tabs: Set<number>;
  /** Tabs the user took out: working in them does not put them back. */
  released: Set<number>;
}

export interface AgentRef {
  id: string;
  name: string;
}

/** A tab the user moved into or out of an agent's group. */
export interface PersonMove {
  tabId: number;
  /** The agent whose group the tab left. */
  from: string | undefined;
  /** The agent whose group the tab joined. */
  into: string | undefined;
  /** The tab left for another window (its group cannot follow it there), not just the group. */
  otherWindow: boolean;
}

export class AgentTabGroups {
  readonly #agents = new Map<string, AgentGroup>();
  readonly #moves = new GroupMoves();
  readonly #listeners = new Set<(move: PersonMove) => void>();
  /** One change at a time: overlapping calls would otherwise make two groups for one agent. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly port: TabGroupPort,
    private readonly options: { enabled(): boolean; memory?: GroupMemory; onError?(error: unknown): void },
  ) {}

  #serial<T>(work: () => Promise<T>): Promise<T | undefined> {
    const run = this.#queue.then(work).catch((error: unknown) => {
      this.options.onError?.(error);
      return undefined;
    });
    this.#queue = run;
    return run;
  }

  #agent(agentId: string): AgentGroup {
    let agent = this.#agents.get(agentId);
    if (!agent) {
      agent = { groupId: undefined, windowId: undefined, styled: '', tabs: new Set(), released: new Set() };
      this.#agents.set(agentId, agent);
    }
    return agent;
  }

  /** The agents that have a group now. */
  agentIds(): string[] {
    return [...this.#agents].flatMap(([id, agent]) => (agent.groupId === undefined ? [] : [id]));
  }

  /** The group an agent's tabs are in now, if any. */
  groupOf(agentId: string): number | undefined {
    return this.#agents.get(agentId)?.groupId;
  }

  /** Tells `listener` of each tab the user moves into or out of an agent's group. */
  onPersonMove(listener: (move: PersonMove) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** An agent that follows the tab in front works in this tab: it joins the group unless the user said otherwise. */
  join(ref: AgentRef, tabId: number): Promise<void> {
    return this.#serial(async () => {
      if (!this.options.enabled() || this.#agent(ref.id).released.has(tabId)) return;
      await this.#joinNow(ref, tabId, false);
    }).then(() => undefined);
  }

  /**
   * The tab is the agent's own now: it joins the agent's group, leaving another agent's group for
   * it. A drag out the user made before no longer counts: they have given it since.
   */
  adopt(ref: AgentRef, tabId: number): Promise<void> {
    return this.#serial(async () => {
      if (!this.options.enabled()) return;
      this.#agent(ref.id).released.delete(tabId);
      await this.#joinNow(ref, tabId, true);
    }).then(() => undefined);
  }

  async #joinNow(ref: AgentRef, tabId: number, fromOtherAgent: boolean): Promise<void> {
    const agent = this.#agent(ref.id);
    const place = await this.port.place(tabId);
    if (!place || place.pinned) return;
    if (agent.groupId !== undefined && place.groupId === agent.groupId) {
      agent.tabs.add(tabId);
    } else {
      const holder = place.groupId === NO_GROUP ? undefined : this.#find((other) => other.groupId === place.groupId);
      // The user's own group keeps its tab, and so does another agent's unless this one owns the tab now.
      if (place.groupId !== NO_GROUP && !(fromOtherAgent && holder)) return;
      // A group belongs to one window; a tab elsewhere would be dragged over to it.
      if (agent.groupId !== undefined && agent.windowId !== place.windowId) return;
      const created = agent.groupId === undefined;
      agent.groupId = await this.#group(tabId, agent.groupId);
      agent.windowId = place.windowId;
      agent.tabs.add(tabId);
      holder?.[1].tabs.delete(tabId);
      if (created) await this.#remember();
    }
    const colour = colourFor(ref.id);
    if (agent.styled !== `${ref.name}\n${colour}`) {
      await this.port.style(agent.groupId, ref.name, colour);
      agent.styled = `${ref.name}\n${colour}`;
    }
  }

  /** The tab is no longer an agent's: it leaves the agent's group (never a group of the user's). */
  leave(tabId: number): Promise<void> {
    return this.#serial(async () => {
      const agent = this.#find((candidate) => candidate.tabs.has(tabId))?.[1];
      if (!agent) return;
      agent.tabs.delete(tabId);
      const place = await this.port.place(tabId);
      if (place && agent.groupId !== undefined && place.groupId === agent.groupId) await this.#ungroup([tabId]);
    }).then(() => undefined);
  }

  #find(test: (agent: AgentGroup) => boolean): [string, AgentGroup] | undefined {
    return [...this.#agents].find(([, agent]) => agent.groupId !== undefined && test(agent));
  }

  /** Moves a tab into a group (a new one when `groupId` is undefined), recording the move as Tabwright's. */
  async #group(tabId: number, groupId: number | undefined): Promise<number> {
    this.#moves.expect(tabId, groupId ?? NEW_GROUP);
    try {
      return await this.port.group(tabId, groupId);
    } catch (error) {
      this.#moves.drop(tabId);
      throw error;
    }
  }

  async #ungroup(tabIds: number[]): Promise<void> {
    for (const tabId of tabIds) this.#moves.expect(tabId, NO_GROUP);
    try {
      await this.port.ungroup(tabIds);
    } catch (error) {
      for (const tabId of tabIds) this.#moves.drop(tabId);
      throw error;
    }
  }

  /** The agent disconnected: its group goes, its tabs stay open. What the user took out stays remembered. */
  dissolve(agentId: string): Promise<void> {
    return this.#serial(() => this.#dissolve(agentId)).then(() => undefined);
  }

  /** Groups were turned off, or the kill switch pulled: every agent's group goes. */
  dissolveAll(): Promise<void> {
    return this.#serial(async () => {
      for (const agentId of this.#agents.keys()) await this.#dissolve(agentId);
    }).then(() => undefined);
  }

  async #dissolve(agentId: string): Promise<void> {
    const agent = this.#agents.get(agentId);
    if (!agent || agent.groupId === undefined) return;
    const groupId = agent.groupId;
    // Forgotten first, so the "tab left the group" events this causes are not taken for the user's.
    agent.groupId = undefined;
    agent.windowId = undefined;
    agent.styled = '';
    agent.tabs.clear();
    const tabs = await this.port.tabsIn(groupId);
    if (tabs.length) await this.#ungroup(tabs);
    await this.#remember();
  }

  /**
   * The panel is closing: ungroups the tabs it put in groups with one call made at once, since
   * nothing awaited after a page starts to unload is sure to run. What this misses, the next
   * panel's `cleanUpLeftovers` removes.
   */
  abandon(): void {
    const tabs = [...this.#agents.values()].flatMap((agent) => [...agent.tabs]);
    for (const agent of this.#agents.values()) agent.tabs.clear();
    if (tabs.length) void this.#ungroup(tabs).catch((error: unknown) => this.options.onError?.(error));
  }

  /** A panel that was closed mid-work left groups behind: they go before any agent starts. */
  cleanUpLeftovers(): Promise<void> {
    return this.#serial(async () => {
      const left = (await this.options.memory?.load()) ?? [];
      for (const groupId of left) {
        const tabs = await this.port.tabsIn(groupId);
        if (tabs.length) await this.#ungroup(tabs);
      }
      await this.#remember();
    }).then(() => undefined);
  }

  async #remember(): Promise<void> {
    const ids = [...this.#agents.values()].flatMap((a) => (a.groupId === undefined ? [] : [a.groupId]));
    await this.options.memory?.save(ids);
  }

  /** Chrome says a tab's group changed: Tabwright moved it, or the user did. */
  tabRegrouped(tabId: number, groupId: number): void {
    const own = this.#moves.settle(tabId, groupId);
    const from = this.#find((agent) => agent.groupId !== groupId && agent.tabs.has(tabId));
    const into = groupId === NO_GROUP ? undefined : this.#find((agent) => agent.groupId === groupId);
    from?.[1].tabs.delete(tabId);
    into?.[1].tabs.add(tabId);
    into?.[1].released.delete(tabId);
    if (own || (!from && !into)) return;
    from?.[1].released.add(tabId);
    const fromWindow = from?.[1].windowId;
    // Reported in turn with Tabwright's own changes; where the tab is now is asked only when it left a group.
    void this.#serial(async () => {
      const place = into || fromWindow === undefined ? undefined : await this.port.place(tabId);
      const otherWindow = place !== undefined && place.windowId !== fromWindow;
      const move: PersonMove = { tabId, from: from?.[0], into: into?.[0], otherWindow };
      for (const listener of this.#listeners) listener(move);
    });
  }

  tabClosed(tabId: number): void {
    for (const agent of this.#agents.values()) {
      agent.tabs.delete(tabId);
      agent.released.delete(tabId);
    }
  }

  /** The user closed or ungrouped the whole group. */
  groupRemoved(groupId: number): void {
    for (const agent of this.#agents.values()) {
      if (agent.groupId !== groupId) continue;
      agent.groupId = undefined;
      agent.windowId = undefined;
      agent.styled = '';
      agent.tabs.clear();
    }
    void this.#serial(() => this.#remember());
  }
}
