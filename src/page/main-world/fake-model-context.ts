/**
 * A stand-in for Chromium 156's `ModelContext`, for tests in jsdom: it reads a descriptor the way
 * Chromium does (each field it knows once, `destructiveHint` never), refuses a name already taken
 * or an aborted signal, and lists what it holds with the hints it kept.
 */
export interface HeldTool {
  name: unknown;
  title: unknown;
  description: unknown;
  inputSchema: unknown;
  execute: unknown;
  annotations: { readOnlyHint: boolean; consequentialHint: boolean; untrustedContentHint: boolean };
  window: unknown;
}

export function fakeModelContextClass(win: Window) {
  return class ModelContext {
    readonly held: HeldTool[] = [];

    registerTool(tool: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<void> {
      const annotations = (tool.annotations ?? {}) as Record<string, unknown>;
      const held: HeldTool = {
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
        execute: tool.execute,
        annotations: {
          consequentialHint: !!annotations.consequentialHint,
          readOnlyHint: !!annotations.readOnlyHint,
          untrustedContentHint: !!annotations.untrustedContentHint,
        },
        window: win,
      };
      const signal = options?.signal;
      if (this.held.some((other) => other.name === held.name)) {
        return Promise.reject(new DOMException('Duplicate tool name', 'InvalidStateError'));
      }
      if (signal?.aborted) return Promise.reject(new DOMException('signal is aborted without reason', 'AbortError'));
      this.held.push(held);
      signal?.addEventListener('abort', () => this.held.splice(this.held.indexOf(held), 1));
      return Promise.resolve();
    }

    async getTools(): Promise<HeldTool[]> {
      return this.held.map((tool) => ({ ...tool, annotations: { ...tool.annotations } }));
    }

    async executeTool(tool: { name: unknown }, input: Record<string, unknown>): Promise<unknown> {
      const held = this.held.find((candidate) => candidate.name === tool.name);
      return (held?.execute as (input: Record<string, unknown>) => Promise<unknown>)(input);
    }
  };
}

/** A fresh jsdom window with `document.modelContext`, as Chromium gives it with WebMCP on. */
export function windowWithModelContext(): Window & typeof globalThis {
  const frame = document.createElement('iframe');
  document.body.append(frame);
  const win = frame.contentWindow as Window & typeof globalThis;
  const ModelContext = fakeModelContextClass(win);
  const context = new ModelContext();
  Object.assign(win, { ModelContext });
  Object.defineProperty(win.document, 'modelContext', { value: context, configurable: true });
  return win;
}
