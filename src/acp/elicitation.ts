/**
 * `elicitation/create`: the agent asks the user for input (a form, or a web page to visit). Every
 * request waits for the user's own answer — nothing is remembered or answered on their behalf —
 * and Stop answers everything still waiting with `cancel`.
 */
import type { CreateElicitationRequest, CreateElicitationResponse } from '@agentclientprotocol/sdk/unstable';

export interface ElicitationPrompt {
  readonly id: string;
  readonly request: CreateElicitationRequest;
  answer(response: CreateElicitationResponse): void;
  readonly settled: Promise<CreateElicitationResponse>;
}

export const CANCELLED_ELICITATION: CreateElicitationResponse = { action: 'cancel' };

export class ElicitationBroker {
  readonly #pending = new Map<string, ElicitationPrompt>();
  #seq = 0;

  constructor(private readonly show: (prompt: ElicitationPrompt) => void) {}

  get pending(): ElicitationPrompt[] {
    return [...this.#pending.values()];
  }

  ask(request: CreateElicitationRequest, signal?: AbortSignal): Promise<CreateElicitationResponse> {
    const id = `elicit-${++this.#seq}`;
    let resolve!: (response: CreateElicitationResponse) => void;
    const settled = new Promise<CreateElicitationResponse>((r) => (resolve = r));
    const prompt: ElicitationPrompt = {
      id,
      request,
      settled,
      answer: (response) => {
        if (!this.#pending.delete(id)) return;
        resolve(response);
      },
    };
    this.#pending.set(id, prompt);
    // The agent withdrew its request ($/cancel_request): the card stops waiting.
    signal?.addEventListener('abort', () => prompt.answer(CANCELLED_ELICITATION), { once: true });
    this.show(prompt);
    return settled;
  }

  cancelAll(): void {
    for (const prompt of [...this.#pending.values()]) prompt.answer(CANCELLED_ELICITATION);
  }
}
