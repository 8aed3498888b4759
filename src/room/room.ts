/**
 * The shared room: who hears a message, which replies are relayed to whom, and the loop guard
 * that stops agents from talking to each other forever. Pure: delivery and notices are passed in.
 */
import { findMentions, type Named } from './mentions';
import { wrapRelay } from './relay-format';

export type RoomMode = 'mention' | 'ambient';

export interface RoomOptions {
  mode(): RoomMode;
  /** Consecutive agent-to-agent relays allowed before the cascade pauses. */
  loopCap(): number;
  agents(): readonly Named[];
  /** Sends a relayed reply to one agent. */
  deliver(agentId: string, text: string): void;
  notice(text: string): void;
}

export class Room {
  #relaysSinceHuman = 0;
  #paused = false;

  constructor(private readonly options: RoomOptions) {}

  get paused(): boolean {
    return this.#paused;
  }

  /** Who a message from the human goes to: the mentioned agents, or everyone. */
  recipients(text: string): Named[] {
    const agents = this.options.agents();
    if (this.options.mode() === 'ambient') return [...agents];
    const mentioned = findMentions(text, agents);
    return mentioned.length ? mentioned : [...agents];
  }

  /** The human spoke: the loop guard resets. Returns who the message is for (the caller sends it). */
  fromHuman(text: string): Named[] {
    this.#relaysSinceHuman = 0;
    this.#paused = false;
    return this.recipients(text);
  }

  /** Where an agent's finished reply is relayed to; never back to its author. */
  relayTargets(fromId: string, reply: string): Named[] {
    const others = this.options.agents().filter((agent) => agent.id !== fromId);
    if (this.options.mode() === 'ambient') return others;
    return findMentions(reply, others);
  }

  /** An agent finished (or was stopped mid-) reply: relay it, unless the loop guard says stop. */
  fromAgent(fromId: string, reply: string, partial = false): Named[] {
    const author = this.options.agents().find((agent) => agent.id === fromId);
    if (!author || !reply.trim()) return [];
    const targets = this.relayTargets(fromId, reply);
    if (targets.length === 0) return [];
    if (this.#paused) return [];
    if (this.#relaysSinceHuman >= this.options.loopCap()) {
      this.#paused = true;
      this.options.notice(
        `Paused the agents' conversation after ${this.#relaysSinceHuman} relays in a row. Say something to let them continue.`,
      );
      return [];
    }
    this.#relaysSinceHuman++;
    const wrapped = wrapRelay(author.name, reply, partial);
    for (const target of targets) this.options.deliver(target.id, wrapped);
    return targets;
  }
}
