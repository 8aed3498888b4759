/**
 * Who is calling: an agent of the panel, or an MCP client reaching the panel through one. `id` is
 * decided by the panel and the broker's credentials and keys everything that is the caller's own
 * (tabs, "for this site" grants); `label` is how cards and the audit log name it.
 */
import type { CallMeta } from './mcp-core';

export interface Caller {
  id: string;
  label: string;
}

/**
 * The caller of a call that came through an agent's connection: the agent itself, or the MCP
 * client the broker says it carried (its id kept within the agent's, so no client of one agent is
 * ever taken for another agent or its clients). Labels are told apart when two clients give the
 * same name.
 */
export class CallerBook {
  readonly #labels = new Map<string, string>();

  constructor(
    private readonly agentId: string,
    private readonly agentName: () => string,
  ) {}

  of(meta: Pick<CallMeta, 'caller'>): Caller {
    if (!meta.caller) return { id: this.agentId, label: this.agentName() };
    const id = `${this.agentId}/mcp:${meta.caller.id}`;
    let label = this.#labels.get(id);
    if (!label) {
      const taken = new Set(this.#labels.values());
      const base = meta.caller.label.trim();
      label = base;
      for (let n = 2; taken.has(label); n++) label = `${base} (${n})`;
      this.#labels.set(id, label);
    }
    return { id, label };
  }

  /** Callers this book has named: every MCP client seen through the agent. */
  get clients(): string[] {
    return [...this.#labels.keys()];
  }
}
