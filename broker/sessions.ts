/**
 * Sessions outlive sockets: a panel that reconnects resumes its session, and a prompt re-sent
 * with a client message id the broker has seen is not delivered to the agent again. With a state
 * file, sessions and delivered ids also survive a broker restart.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { AgentContext, PromptResponse } from '@agentclientprotocol/sdk/unstable';
import type { AcpDeclaration } from './panel-tools';

export interface BrokerSession {
  readonly id: string;
  declared: AcpDeclaration[];
  /** The panel socket currently bound to this session. */
  client: AgentContext | undefined;
  /** Client message ids already delivered, with the answer once the turn ended. */
  readonly delivered: Map<string, Promise<PromptResponse>>;
  turn: AbortController | undefined;
  /** Every user prompt delivered to the agent, in order (what the agent has been told). */
  readonly received: string[];
}

interface StoredSession {
  id: string;
  delivered: string[];
  received: string[];
}

export class SessionStore {
  readonly #sessions = new Map<string, BrokerSession>();

  constructor(private readonly stateFile?: string) {
    if (stateFile && existsSync(stateFile)) {
      const stored = JSON.parse(readFileSync(stateFile, 'utf8')) as StoredSession[];
      for (const entry of stored) {
        const session = this.#blank(entry.id);
        // A turn that was running when the broker stopped counts as delivered: never run it twice.
        for (const id of entry.delivered) session.delivered.set(id, Promise.resolve({ stopReason: 'end_turn' }));
        session.received.push(...entry.received);
        this.#sessions.set(entry.id, session);
      }
    }
  }

  #blank(id: string): BrokerSession {
    return { id, declared: [], client: undefined, delivered: new Map(), turn: undefined, received: [] };
  }

  create(id: string): BrokerSession {
    const session = this.#blank(id);
    this.#sessions.set(id, session);
    this.save();
    return session;
  }

  get(id: string): BrokerSession | undefined {
    return this.#sessions.get(id);
  }

  all(): BrokerSession[] {
    return [...this.#sessions.values()];
  }

  save(): void {
    if (!this.stateFile) return;
    const stored: StoredSession[] = this.all().map((s) => ({
      id: s.id,
      delivered: [...s.delivered.keys()],
      received: s.received,
    }));
    const temporary = `${this.stateFile}.tmp`;
    writeFileSync(temporary, JSON.stringify(stored));
    renameSync(temporary, this.stateFile);
  }
}
