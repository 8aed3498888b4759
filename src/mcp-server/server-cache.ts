/**
 * The servers made for agents, one per agent and server, kept for the life of the panel so a
 * server an agent was declared keeps its state (its name, its grants' owner) across calls.
 */
import type { ToolServer } from './mcp-core';

export class ServerCache {
  readonly #servers = new Map<string, ToolServer>();

  /** The agent's server under `key`, made by `make` the first time it is asked for. */
  get(agentId: string, key: string, make: () => ToolServer): ToolServer {
    const id = JSON.stringify([agentId, key]);
    let server = this.#servers.get(id);
    if (!server) {
      server = make();
      this.#servers.set(id, server);
    }
    return server;
  }
}
