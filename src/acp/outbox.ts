/**
 * The user's messages on their way to one agent. Messages typed while the agent is disconnected
 * or busy wait here and leave together, in order, as one batched turn with one client message id.
 * If the socket dies mid-turn, the batch is re-sent with the same id when the broker drops
 * repeats; otherwise only when the agent had not answered it at all, so nothing is said twice.
 *
 * This is the only record of which message an agent has still to take: the transcript's "queued"
 * badge, the roster's count and the stored history all read `pending` (through `queueChanged`).
 */

export interface QueuedMessage {
  id: string;
  text: string;
  at: number;
}

export interface Batch {
  id: string;
  messages: QueuedMessage[];
  /** Whether any session/update arrived for this batch: the agent has seen it. */
  answered: boolean;
  attempts: number;
}

export interface OutboxState {
  pending: QueuedMessage[];
  inflight: Batch | undefined;
}

export type InterruptOutcome = 'resend' | 'lost-after-reply';

export class Outbox {
  #pending: QueuedMessage[];
  #inflight: Batch | undefined;

  constructor(
    private readonly mintId: () => string,
    state: OutboxState = { pending: [], inflight: undefined },
  ) {
    this.#pending = [...state.pending];
    this.#inflight = state.inflight;
  }

  enqueue(text: string, at: number, id = this.mintId()): QueuedMessage {
    const message = { id, text, at };
    this.#pending.push(message);
    return message;
  }

  get pending(): readonly QueuedMessage[] {
    return this.#pending;
  }

  get inflight(): Batch | undefined {
    return this.#inflight;
  }

  /** The batch to send next: the one in flight again, or everything pending as a new one. */
  take(): Batch | undefined {
    if (this.#inflight) {
      this.#inflight.attempts++;
      return this.#inflight;
    }
    if (this.#pending.length === 0) return undefined;
    this.#inflight = { id: this.mintId(), messages: this.#pending, answered: false, attempts: 1 };
    this.#pending = [];
    return this.#inflight;
  }

  noteAnswered(): void {
    if (this.#inflight) this.#inflight.answered = true;
  }

  complete(): Batch | undefined {
    const done = this.#inflight;
    this.#inflight = undefined;
    return done;
  }

  /**
   * The socket died with a batch in flight. With a de-duplicating broker it is always safe to send
   * again; with any other broker only if the agent never started answering it.
   */
  interrupted(brokerDropsRepeats: boolean): InterruptOutcome {
    const batch = this.#inflight;
    if (!batch) return 'resend';
    if (brokerDropsRepeats || !batch.answered) return 'resend';
    this.#inflight = undefined;
    return 'lost-after-reply';
  }

  /**
   * What a replacement connection has to send again: the batch in flight if the agent never
   * answered it, then everything pending, in order.
   */
  owed(): QueuedMessage[] {
    const unanswered = this.#inflight && !this.#inflight.answered ? this.#inflight.messages : [];
    return [...unanswered, ...this.#pending];
  }

  /** Removes a message that has not left yet (the user took it back). */
  withdraw(id: string): boolean {
    const before = this.#pending.length;
    this.#pending = this.#pending.filter((message) => message.id !== id);
    return this.#pending.length !== before;
  }

  snapshot(): OutboxState {
    return { pending: [...this.#pending], inflight: this.#inflight && { ...this.#inflight } };
  }
}

export function batchText(batch: Batch): string {
  return batch.messages.map((message) => message.text).join('\n\n');
}
