/**
 * `session/request_permission`: the agent asks, the user answers. An "always" answer is
 * remembered per agent and tool, and later requests for that tool are answered from memory.
 * Stop answers everything still pending with `cancelled`.
 */
import type {
  PermissionOption,
  RequestPermissionRequest,
  RequestPermissionResponse,
} from '@agentclientprotocol/sdk/unstable';

export type RememberedChoice = 'allow_always' | 'reject_always';

export interface PermissionMemory {
  get(tool: string): RememberedChoice | undefined;
  set(tool: string, choice: RememberedChoice): void;
}

export interface PermissionPrompt {
  readonly id: string;
  readonly request: RequestPermissionRequest;
  readonly tool: string;
  /** Answer with one of the request's option ids, or `null` for cancelled. */
  answer(optionId: string | null): void;
  readonly settled: Promise<RequestPermissionResponse>;
}

/** The name a permission is remembered under: the tool call's title, else its kind. */
export function permissionToolKey(request: RequestPermissionRequest): string {
  return request.toolCall.title ?? request.toolCall.kind ?? 'tool';
}

export class PermissionBroker {
  readonly #pending = new Map<string, PermissionPrompt>();
  #seq = 0;

  constructor(
    private readonly memory: PermissionMemory,
    private readonly show: (prompt: PermissionPrompt) => void,
  ) {}

  get pending(): PermissionPrompt[] {
    return [...this.#pending.values()];
  }

  ask(request: RequestPermissionRequest): Promise<RequestPermissionResponse> {
    const tool = permissionToolKey(request);
    const remembered = this.memory.get(tool);
    const option = remembered && request.options.find((candidate) => candidate.kind === remembered);
    if (option) return Promise.resolve(selected(option));

    const id = `perm-${++this.#seq}`;
    let resolve!: (response: RequestPermissionResponse) => void;
    const settled = new Promise<RequestPermissionResponse>((r) => (resolve = r));
    const prompt: PermissionPrompt = {
      id,
      request,
      tool,
      settled,
      answer: (optionId) => {
        if (!this.#pending.delete(id)) return;
        const chosen =
          optionId === null ? undefined : request.options.find((candidate) => candidate.optionId === optionId);
        if (!chosen) return resolve({ outcome: { outcome: 'cancelled' } });
        if (chosen.kind === 'allow_always' || chosen.kind === 'reject_always') this.memory.set(tool, chosen.kind);
        resolve(selected(chosen));
      },
    };
    this.#pending.set(id, prompt);
    this.show(prompt);
    return settled;
  }

  cancelAll(): void {
    for (const prompt of [...this.#pending.values()]) prompt.answer(null);
  }
}

function selected(option: PermissionOption): RequestPermissionResponse {
  return { outcome: { outcome: 'selected', optionId: option.optionId } };
}
