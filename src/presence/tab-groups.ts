/**
 * The agents' tab groups: a tab an agent works in joins that agent's group (one per agent, named
 * after it, in its colour), and the group goes when the agent disconnects or the user turns groups
 * off. What the user does wins: a tab they take out of the group is not put back, and a tab they
 * keep in a group of their own, or pinned, is left where it is. Chrome is behind `TabGroupPort`.
 */
import { colourFor, type GroupColour } from './colours';

/** Chrome's "no group". */
export const NO_GROUP = -1;

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
  /** Tabs this panel put in the group. */
  tabs: Set<number>;
  /** Tabs the user took out: never put back. */
  released: Set<number>;
}

export interface AgentRef {
  id: string;
  name: string;
}

export class AgentTabGroups {
  readonly #agents = new Map<string, AgentGroup>();
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

  /** The agent works in this tab: it joins the agent's group unless the user said otherwise. */
  join(ref: AgentRef, tabId: number): Promise<void> {
    return this.#serial(async () => {
      if (!this.options.enabled()) return;
      const agent = this.#agent(ref.id);
      if (agent.released.has(tabId)) return;
      const place = await this.port.place(tabId);
      if (!place || place.pinned) return;
      if (agent.groupId !== undefined && place.groupId === agent.groupId) {
        agent.tabs.add(tabId);
      } else {
        // Someone else's group (the user's, another agent's) keeps its tab.
        if (place.groupId !== NO_GROUP) return;
        // A group belongs to one window; a tab elsewhere would be dragged over to it.
        if (agent.groupId !== undefined && agent.windowId !== place.windowId) return;
        const created = agent.groupId === undefined;
        agent.groupId = await this.port.group(tabId, agent.groupId);
        agent.windowId = place.windowId;
        agent.tabs.add(tabId);
        if (created) await this.#remember();
      }
      const colour = colourFor(ref.id);
      if (agent.styled !== `${ref.name}\n${colour}`) {
        await this.port.style(agent.groupId, ref.name, colour);
        agent.styled = `${ref.name}\n${colour}`;
      }
    }).then(() => undefined);
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
    if (tabs.length) await this.port.ungroup(tabs);
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
    if (tabs.length) void this.port.ungroup(tabs).catch((error: unknown) => this.options.onError?.(error));
  }

  /** A panel that was closed mid-work left groups behind: they go before any agent starts. */
  cleanUpLeftovers(): Promise<void> {
    return this.#serial(async () => {
      const left = (await this.options.memory?.load()) ?? [];
      for (const groupId of left) {
        const tabs = await this.port.tabsIn(groupId);
        if (tabs.length) await this.port.ungroup(tabs);
      }
      await this.#remember();
    }).then(() => undefined);
  }

  async #remember(): Promise<void> {
    const ids = [...this.#agents.values()].flatMap((a) => (a.groupId === undefined ? [] : [a.groupId]));
    await this.options.memory?.save(ids);
  }

  /** Chrome says a tab's group changed (the user dragged it, or Tabwright moved it). */
  tabRegrouped(tabId: number, groupId: number): void {
    for (const agent of this.#agents.values()) {
      if (agent.groupId === undefined) continue;
      if (agent.tabs.has(tabId) && groupId !== agent.groupId) {
        agent.tabs.delete(tabId);
        agent.released.add(tabId);
      } else if (groupId === agent.groupId && agent.released.has(tabId)) {
        // The user put it back themselves.
        agent.released.delete(tabId);
        agent.tabs.add(tabId);
      }
    }
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
