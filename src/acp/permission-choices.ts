import type { StorageArea } from '../shared/stores';
import type { RememberedChoice } from './permissions';

/** Remembered "always" answers to permission requests, per agent and tool. */
export class PermissionChoices {
  #cache = new Map<string, Record<string, RememberedChoice>>();
  constructor(private readonly area: StorageArea) {}
  async preload(agentId: string): Promise<void> {
    const key = `permissions:${agentId}`;
    const { [key]: stored } = await this.area.get([key]);
    this.#cache.set(agentId, (stored as Record<string, RememberedChoice> | undefined) ?? {});
  }
  memoryFor(agentId: string) {
    return {
      get: (tool: string) => this.#cache.get(agentId)?.[tool],
      set: (tool: string, choice: RememberedChoice) => {
        const entry = { ...(this.#cache.get(agentId) ?? {}), [tool]: choice };
        this.#cache.set(agentId, entry);
        void this.area.set({ [`permissions:${agentId}`]: entry });
      },
    };
  }
}
