/**
 * What the person sees of who has which tab, and how they give and take: the tab in front of the
 * panel's window with the agents it can be shared with (or who has it), and each agent's tabs. A
 * tab's title is page text, so it is shown on one line, cleaned as tools show it, and cut short;
 * two tabs with one title are told apart by number, so each "Take back" control has a name of its
 * own. A tab can go to an agent that works in tabs of its own, or to an MCP client that reached
 * the panel through a connected agent (clients never follow the tab in front). Pure: the panel
 * feeds it Chrome's tabs as they change (`platform/chrome-tab-facts.ts`).
 */
import type { TabOwnership } from '../mcp-server/tab-ownership';
import { clip, neutraliseText } from '../shared/text/line';
import { agentOf } from './owned-tab-groups';

/** What the panel knows of a tab. */
export interface TabFacts {
  id: number;
  title: string | undefined;
  url: string | undefined;
}

/** A connected agent with browser access. */
export interface SharingAgent {
  id: string;
  name: string;
  /** It works in the tab in front ("Follow my current tab"), so it is offered no tab itself; its MCP clients are. */
  follows?: boolean;
}

/** Who the tab in front can be shared with: an agent, or an MCP client (`client`, its name) through the agent `name`. */
export interface ShareTarget {
  /** The caller id the tab goes to. */
  id: string;
  name: string;
  client?: string;
}

/** Who has a tab: an agent, or an MCP client through it (`client` its name, `null` when not known yet). */
export interface TabHolder {
  agentId: string;
  agentName: string;
  client?: string | null;
}

export type FrontTab =
  | { kind: 'none' }
  /** A browser or extension page: only web pages can be shared (`shareWith`: who a web page could go to). */
  | { kind: 'not-web'; tabId: number; title: string; shareWith: ShareTarget[] }
  | { kind: 'web'; tabId: number; title: string; holder?: TabHolder; takeBack?: string; shareWith: ShareTarget[] };

export interface HeldTab {
  tabId: number;
  title: string;
  /** The MCP client that has it, when it is not the agent itself (`null`: its name is not known yet). */
  client?: string | null;
  /** The tab's name on its "Take back" control: the title, numbered when another of the list has it too. */
  takeBack: string;
}

export interface TabSharingOptions {
  /** The agents connected now with browser access: the tab can go to them or to their MCP clients. */
  agents(): SharingAgent[];
  /** An agent's name, for tabs held by agents that are not connected now. */
  agentName(agentId: string): string | undefined;
  /** What a tab without a title or address is called. */
  untitled: string;
}

const TITLE_MAX = 80;

export function isWebPage(url: string | undefined): boolean {
  return /^https?:\/\//i.test(url ?? '');
}

export class TabSharing {
  readonly #tabs = new Map<number, TabFacts>();
  readonly #clients = new Map<string, string>();
  readonly #listeners = new Set<() => void>();
  #front: number | undefined;

  constructor(
    private readonly ownership: TabOwnership,
    private readonly options: TabSharingOptions,
  ) {
    ownership.onChange((change) => {
      // A client whose tabs were forgotten is gone (its agent removed, its session ended): it is offered no more.
      if (change.kind === 'forgotten') this.#clients.delete(change.caller);
      if (change.kind === 'cleared') this.#clients.clear();
      this.#changed();
    });
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  /** The tab in front of the panel's window is now `tab`. */
  frontIs(tab: TabFacts | undefined): void {
    const learned = tab !== undefined && this.#learn(tab);
    const switched = tab?.id !== this.#front;
    this.#front = tab?.id;
    if (learned || switched) this.#changed();
  }

  /** A tab's title or address is now as `tab` says. */
  seen(tab: TabFacts): void {
    if (this.#learn(tab) && (tab.id === this.#front || this.ownership.ownerOf(tab.id) !== undefined)) this.#changed();
  }

  gone(tabId: number): void {
    this.#tabs.delete(tabId);
    if (tabId === this.#front) {
      this.#front = undefined;
      this.#changed();
    }
  }

  #learn(tab: TabFacts): boolean {
    const known = this.#tabs.get(tab.id);
    if (known && known.title === tab.title && known.url === tab.url) return false;
    this.#tabs.set(tab.id, { ...tab });
    return true;
  }

  /** An MCP client reaching the panel through an agent said its name. */
  nameClient(callerId: string, name: string): void {
    if (this.#clients.get(callerId) === name) return;
    this.#clients.set(callerId, name);
    this.#changed();
  }

  #title(tabId: number): string {
    const tab = this.#tabs.get(tabId);
    const text = neutraliseText(tab?.title ?? '') || neutraliseText(tab?.url ?? '') || this.options.untitled;
    return clip(text, TITLE_MAX);
  }

  #holder(caller: string): TabHolder {
    const agentId = agentOf(caller);
    const agentName =
      this.options.agents().find((agent) => agent.id === agentId)?.name ?? this.options.agentName(agentId) ?? agentId;
    if (caller === agentId) return { agentId, agentName };
    return { agentId, agentName, client: this.#clients.get(caller) ?? null };
  }

  /** Who a tab can go to now: each connected agent that works in tabs of its own, and the MCP clients seen through each. */
  #targets(): ShareTarget[] {
    return this.options.agents().flatMap((agent) => {
      const own = agent.follows ? [] : [{ id: agent.id, name: agent.name }];
      const clients = [...this.#clients]
        .filter(([caller]) => agentOf(caller) === agent.id)
        .map(([caller, client]) => ({ id: caller, name: agent.name, client }));
      return [...own, ...clients];
    });
  }

  front(): FrontTab {
    const tabId = this.#front;
    if (tabId === undefined) return { kind: 'none' };
    const title = this.#title(tabId);
    const owner = this.ownership.ownerOf(tabId);
    const shareWith = this.#targets().filter((target) => target.id !== owner);
    if (!isWebPage(this.#tabs.get(tabId)?.url)) return { kind: 'not-web', tabId, title, shareWith };
    if (owner === undefined) return { kind: 'web', tabId, title, shareWith };
    const holder = this.#holder(owner);
    const takeBack = this.tabsOf(holder.agentId).find((tab) => tab.tabId === tabId)?.takeBack ?? title;
    return { kind: 'web', tabId, title, holder, takeBack, shareWith };
  }

  /** The agent's tabs and its MCP clients', in the order they became theirs. */
  tabsOf(agentId: string): HeldTab[] {
    const taken = new Set<string>();
    return this.ownership.record().owners.flatMap(([tabId, caller]) => {
      if (agentOf(caller) !== agentId) return [];
      const title = this.#title(tabId);
      let takeBack = title;
      for (let n = 2; taken.has(takeBack); n++) takeBack = `${title} (${n})`;
      taken.add(takeBack);
      const client = caller === agentId ? {} : { client: this.#clients.get(caller) ?? null };
      return [{ tabId, title, takeBack, ...client }];
    });
  }

  /**
   * The person shares the tab in front with an agent or an MCP client (`caller`, a share target's
   * id), taking it from whoever had it. Nothing moves or comes to the front.
   */
  share(caller: string, tabId: number): void {
    // Only what the person sees offered: the tab shown, to someone shown.
    if (tabId !== this.#front || !isWebPage(this.#tabs.get(tabId)?.url)) return;
    if (!this.#targets().some((target) => target.id === caller)) return;
    this.ownership.give(tabId, caller);
  }

  takeBack(tabId: number): void {
    this.ownership.takeBack(tabId);
  }
}
