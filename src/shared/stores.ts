/**
 * Typed views over a key-value storage area (`chrome.storage.local` in the panel, a Map in
 * tests). Tokens get their own keys in the local area only; they never enter the settings object.
 */
export interface StorageArea {
  get(keys: string[]): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(keys: string[]): Promise<void>;
}

export class MemoryArea implements StorageArea {
  readonly data = new Map<string, unknown>();
  async get(keys: string[]) {
    return Object.fromEntries(keys.filter((k) => this.data.has(k)).map((k) => [k, structuredClone(this.data.get(k))]));
  }
  async set(items: Record<string, unknown>) {
    for (const [k, v] of Object.entries(items)) this.data.set(k, structuredClone(v));
  }
  async remove(keys: string[]) {
    for (const k of keys) this.data.delete(k);
  }
}

/** The local-area key an agent's token is kept under. */
export const tokenKey = (agentId: string) => `token:${agentId}`;

export class TokenStore {
  constructor(private readonly localArea: StorageArea) {}
  async get(agentId: string): Promise<string> {
    const key = tokenKey(agentId);
    const { [key]: token } = await this.localArea.get([key]);
    return typeof token === 'string' ? token : '';
  }
  async set(agentId: string, token: string): Promise<void> {
    await this.localArea.set({ [tokenKey(agentId)]: token });
  }
  async remove(agentId: string): Promise<void> {
    await this.localArea.remove([tokenKey(agentId)]);
  }
}

/** Session ids per agent and window, so reopening the panel resumes the same sessions. */
export class SessionIdStore {
  constructor(private readonly area: StorageArea) {}
  #key(windowId: number, agentId: string) {
    return `session:${windowId}:${agentId}`;
  }
  async get(windowId: number, agentId: string): Promise<string | undefined> {
    const key = this.#key(windowId, agentId);
    const { [key]: id } = await this.area.get([key]);
    return typeof id === 'string' ? id : undefined;
  }
  async set(windowId: number, agentId: string, sessionId: string | undefined): Promise<void> {
    const key = this.#key(windowId, agentId);
    if (sessionId) await this.area.set({ [key]: sessionId });
    else await this.area.remove([key]);
  }
  /** Whether any of these agents has a session in this window. */
  async any(windowId: number, agentIds: readonly string[]): Promise<boolean> {
    const found = await this.area.get(agentIds.map((id) => this.#key(windowId, id)));
    return Object.keys(found).length > 0;
  }
  /** Hands the agents' sessions of one window to another (the first one is gone). */
  async move(from: number, to: number, agentIds: readonly string[]): Promise<void> {
    const found = await this.area.get(agentIds.map((id) => this.#key(from, id)));
    const moved = Object.fromEntries(
      agentIds.flatMap((id) => {
        const session = found[this.#key(from, id)];
        return typeof session === 'string' ? [[this.#key(to, id), session]] : [];
      }),
    );
    if (Object.keys(moved).length > 0) await this.area.set(moved);
    await this.area.remove(Object.keys(found));
  }
}

/** Per-tab ref counters; kept in the session area so a panel reload never restarts numbering. */
export class StoredRefCounters {
  constructor(private readonly area: StorageArea) {}
  async next(tabId: number): Promise<number> {
    const key = `refs:${tabId}`;
    const { [key]: next } = await this.area.get([key]);
    return typeof next === 'number' ? next : 1;
  }
  async advance(tabId: number, next: number): Promise<void> {
    if (next > (await this.next(tabId))) await this.area.set({ [`refs:${tabId}`]: next });
  }
}
