/**
 * What the user sees while an agent's call works: for an agent that follows the tab in front, the
 * tab it works in joins its group (an agent with tabs of its own has its group follow what it
 * owns instead, so a tab in the background is never mistaken for the one in front); and while a
 * write action runs the page shows an outline naming the agent, removed once the action is done in
 * the page (while its answer is read) and in any case before the call ends, however it ends (done,
 * failed, cancelled). Calls overlapping in one tab share the outline: it
 * goes when the last of them ends. Chrome is behind the ports.
 */
import type { PagePort, TabInfo } from '../mcp-server/browser-port';
import type { ActiveCall, CallActivity } from '../mcp-server/call-activity';
import { colourFor, OUTLINE_COLOURS } from './colours';
import type { AgentRef, AgentTabGroups } from './tab-groups';

export interface OutlinePort {
  /** Shows it through `page`, the call's own way into the page (so through its gates). */
  show(page: PagePort, tabId: number, label: string, colour: string, leaseMs: number): Promise<void>;
  /** Removes it from the tab's current document, if that document has one; never injects anything. */
  hide(tabId: number): Promise<void>;
}

/**
 * The page removes an outline by itself after this long, in case the panel went away mid-action:
 * longer than any action may take (its page deadline plus a load).
 */
export const OUTLINE_LEASE_MS = 60_000;

/** Tools that leave an agent that follows the tab in front working in whatever tab is in front afterwards. */
const BRINGS_A_TAB = new Set(['navigate', 'new_tab', 'switch_tab']);

export interface PresenceOptions {
  groups: Pick<AgentTabGroups, 'join'>;
  outline: OutlinePort;
  outlineOn(): boolean;
  /** The outline's words, e.g. "Claude is working in this tab". */
  label(agentName: string): string;
  /** Its words while the agent waits for the person to leave the tab alone, e.g. "Claude is waiting for you". */
  waitingLabel?(agentName: string): string;
  activeTab(windowId: number): Promise<TabInfo | undefined>;
  onError?(error: unknown): void;
}

export class CallPresence {
  /** The agents with an action running, per tab, oldest first. */
  readonly #acting = new Map<number, AgentRef[]>();

  constructor(private readonly options: PresenceOptions) {}

  /** The hook for one agent's browser server; `agent` is read on every call (the user may rename it). */
  activityFor(agent: () => AgentRef): CallActivity {
    return {
      around: (call, work) => this.#around(agent(), call, work),
      waitingForPerson: (call, on) => this.#waiting(agent(), call, on),
    };
  }

  /** The outline says the agent waits for the person, or (off) that it works again. */
  async #waiting(agent: AgentRef, call: ActiveCall, on: boolean): Promise<void> {
    const tabId = call.tab?.id;
    if (tabId === undefined || !this.#acting.get(tabId)?.some((acting) => acting.id === agent.id)) return;
    const words = on ? this.options.waitingLabel : undefined;
    await this.#show(call.page, tabId, agent, words?.(agent.name));
  }

  async #around(
    agent: AgentRef,
    call: ActiveCall,
    work: (shown: Promise<void>, acted: () => void) => Promise<void>,
  ): Promise<void> {
    const tab = call.target === 'page' ? call.tab : undefined;
    const joined = tab && call.follows ? this.options.groups.join(agent, tab.id) : Promise.resolve();
    const outlined = tab && call.write && this.options.outlineOn() ? tab.id : undefined;
    // The work starts beside the outline (arming dialogs, say) and waits for it before acting.
    const shown = outlined !== undefined ? this.#begin(call.page, outlined, agent) : Promise.resolve();
    // Once, whichever comes first: the action done in the page, or the work ending.
    let ended: Promise<void> | undefined;
    const end = () =>
      (ended ??= shown.then(() => (outlined !== undefined ? this.#end(call.page, outlined, agent) : undefined)));
    try {
      await work(shown, () => void end());
    } finally {
      await end();
      await joined;
    }
    if (call.follows && !tab && call.write && BRINGS_A_TAB.has(call.tool)) await this.#joinFront(agent, call);
  }

  async #joinFront(agent: AgentRef, call: ActiveCall): Promise<void> {
    const front = await this.options.activeTab(call.windowId).catch(() => undefined);
    if (!front?.url || (await call.checkDestination(front.url)) !== undefined) return;
    await this.options.groups.join(agent, front.id);
  }

  async #begin(page: PagePort, tabId: number, agent: AgentRef): Promise<void> {
    const acting = this.#acting.get(tabId) ?? [];
    acting.push(agent);
    this.#acting.set(tabId, acting);
    await this.#show(page, tabId, agent);
  }

  async #end(page: PagePort, tabId: number, agent: AgentRef): Promise<void> {
    const acting = this.#acting.get(tabId) ?? [];
    const at = acting.indexOf(agent);
    if (at >= 0) acting.splice(at, 1);
    const still = acting.at(-1);
    if (still) return this.#show(page, tabId, still);
    this.#acting.delete(tabId);
    await this.options.outline.hide(tabId).catch((error: unknown) => this.options.onError?.(error));
  }

  async #show(page: PagePort, tabId: number, agent: AgentRef, label?: string): Promise<void> {
    const colour = OUTLINE_COLOURS[colourFor(agent.id)];
    // A page that cannot show it (a browser page, a frame gone) still gets the action.
    await this.options.outline
      .show(page, tabId, label ?? this.options.label(agent.name), colour, OUTLINE_LEASE_MS)
      .catch((error: unknown) => this.options.onError?.(error));
  }
}
