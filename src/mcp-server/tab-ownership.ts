/**
 * Which caller owns which tab. A caller is an agent in the panel, or an MCP client reaching the
 * panel through one (told apart by the broker's credentials, never by a name the client chose). A
 * tab belongs to at most one caller: the ones it opened (with `new_tab`, or that its own actions
 * opened) and the ones the person gave it. Page tools act on the caller's current tab, one of its
 * own; the person's own tabs are never reached unless shared. Pure: the panel keeps the record in
 * session storage, so it lasts as long as the browser's tab ids do.
 */
import { z } from 'zod';

const Record = z.object({
  /** tab id → owning caller id, in the order the tabs became owned. */
  owners: z.array(z.tuple([z.number().int(), z.string()])).default([]),
  /** caller id → its current tab. */
  current: z.array(z.tuple([z.string(), z.number().int()])).default([]),
  /** caller id → the current tab the person closed, until the caller hears of it. */
  closed: z.array(z.tuple([z.string(), z.number().int()])).default([]),
});
export type OwnershipRecord = z.infer<typeof Record>;

export type OwnershipChange =
  | { kind: 'given' | 'opened' | 'switched' | 'taken' | 'closed'; tabId: number; caller: string }
  /** `tabIds`: the tabs that went back to the person with it. */
  | { kind: 'forgotten'; caller: string; tabIds: number[] }
  | { kind: 'cleared'; tabIds: number[] };

export class TabOwnership {
  readonly #owners = new Map<number, string>();
  readonly #current = new Map<string, number>();
  readonly #closed = new Map<string, number>();
  readonly #listeners = new Set<(change: OwnershipChange) => void>();

  constructor(record?: unknown) {
    const parsed = Record.safeParse(record ?? {});
    if (!parsed.success) return;
    for (const [tabId, caller] of parsed.data.owners) this.#owners.set(tabId, caller);
    for (const [caller, tabId] of parsed.data.current) {
      if (this.#owners.get(tabId) === caller) this.#current.set(caller, tabId);
    }
    for (const [caller, tabId] of parsed.data.closed) this.#closed.set(caller, tabId);
  }

  record(): OwnershipRecord {
    return { owners: [...this.#owners], current: [...this.#current], closed: [...this.#closed] };
  }

  onChange(listener: (change: OwnershipChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #changed(change: OwnershipChange): void {
    for (const listener of this.#listeners) listener(change);
  }

  ownerOf(tabId: number): string | undefined {
    return this.#owners.get(tabId);
  }

  owns(caller: string, tabId: number): boolean {
    return this.#owners.get(tabId) === caller;
  }

  /** The caller's tabs, in the order they became its own. */
  tabsOf(caller: string): number[] {
    return [...this.#owners].filter(([, owner]) => owner === caller).map(([tabId]) => tabId);
  }

  currentOf(caller: string): number | undefined {
    return this.#current.get(caller);
  }

  /** The current tab the person closed, until the caller works in a tab of its own again. */
  closedOf(caller: string): number | undefined {
    return this.#closed.get(caller);
  }

  #own(tabId: number, caller: string, current: boolean): void {
    const before = this.#owners.get(tabId);
    if (before !== undefined && before !== caller) this.#release(tabId, before);
    this.#owners.delete(tabId);
    this.#owners.set(tabId, caller);
    if (current || this.#current.get(caller) === undefined) this.#current.set(caller, tabId);
    this.#closed.delete(caller);
  }

  #release(tabId: number, caller: string): void {
    this.#owners.delete(tabId);
    // No other tab becomes current by itself: the caller is told, and chooses (switch_tab).
    if (this.#current.get(caller) === tabId) this.#current.delete(caller);
  }

  /** The person gives `tabId` to `caller` (taking it from anyone who had it): it becomes the caller's current tab. */
  give(tabId: number, caller: string): void {
    this.#own(tabId, caller, true);
    this.#changed({ kind: 'given', tabId, caller });
  }

  /** The caller opened `tabId` itself; `current` when it should work there now (`new_tab`). */
  opened(tabId: number, caller: string, current: boolean): void {
    this.#own(tabId, caller, current);
    this.#changed({ kind: 'opened', tabId, caller });
  }

  /** The caller works in another of its own tabs from now on; false when the tab is not its own. */
  switchTo(caller: string, tabId: number): boolean {
    if (!this.owns(caller, tabId)) return false;
    this.#current.set(caller, tabId);
    this.#closed.delete(caller);
    this.#changed({ kind: 'switched', tabId, caller });
    return true;
  }

  /** The person takes `tabId` back: it belongs to no caller any more. */
  takeBack(tabId: number): void {
    const caller = this.#owners.get(tabId);
    if (caller === undefined) return;
    this.#release(tabId, caller);
    this.#changed({ kind: 'taken', tabId, caller });
  }

  /** `tabId` was closed: whoever owned it loses it, and is told once if it was their current tab. */
  closed(tabId: number): void {
    const caller = this.#owners.get(tabId);
    if (caller === undefined) return;
    if (this.#current.get(caller) === tabId) this.#closed.set(caller, tabId);
    this.#release(tabId, caller);
    this.#changed({ kind: 'closed', tabId, caller });
  }

  /** The owner closed `tabId` itself: it is gone, and nobody needs telling. */
  closedByOwner(tabId: number): void {
    const caller = this.#owners.get(tabId);
    if (caller === undefined) return;
    this.#release(tabId, caller);
    this.#changed({ kind: 'closed', tabId, caller });
  }

  /** The caller is gone (removed, or its client session ended): its tabs belong to nobody. */
  forget(caller: string): void {
    const tabIds = this.tabsOf(caller);
    for (const tabId of tabIds) this.#owners.delete(tabId);
    this.#current.delete(caller);
    this.#closed.delete(caller);
    this.#changed({ kind: 'forgotten', caller, tabIds });
  }

  /** Every caller's tabs go back to the person ("Disconnect all"). */
  clear(): void {
    const tabIds = [...this.#owners.keys()];
    this.#owners.clear();
    this.#current.clear();
    this.#closed.clear();
    this.#changed({ kind: 'cleared', tabIds });
  }

  /** Callers that own at least one tab, or callers whose ids start with `prefix`. */
  callers(prefix = ''): string[] {
    return [...new Set(this.#owners.values())].filter((caller) => caller.startsWith(prefix));
  }
}
