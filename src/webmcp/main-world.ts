/**
 * Functions that run in the page's main world through `chrome.scripting.executeScript({ world:
 * 'MAIN' })`, where WebMCP's `document.modelContext` lives (Chromium exposes it to the page's own
 * scripts, not to an extension's isolated world). Chrome serialises each function's source, so
 * every one is self-contained and gets what it needs as arguments. Only tools of the top document
 * itself are read or run: Chromium's list can also hold tools of its frames, each marked with the
 * window that declared it.
 */
import type { MainWorldAnswer, PageToolsReading, Strictness } from './declared';

export type { PageToolsReading };

export async function listPageToolsInMainWorld(registrationsKey: string): Promise<MainWorldAnswer<PageToolsReading>> {
  type Registered = Record<string, unknown> & { window?: unknown };
  const scope = globalThis as unknown as {
    document: { modelContext?: { getTools?: () => Promise<Registered[]> } };
    navigator: { modelContext?: { getTools?: () => Promise<Registered[]> } };
  } & Record<string, unknown>;
  const context = scope.document.modelContext ?? scope.navigator.modelContext;
  if (!context || typeof context.getTools !== 'function') return { ok: true, value: { tools: [] }, url: location.href };
  const hints = ['readOnlyHint', 'readOnly', 'consequentialHint', 'destructiveHint', 'untrustedContentHint'];
  try {
    const tools = (await context.getTools()).filter((tool) => tool.window === undefined || tool.window === window);
    const value = tools.map((tool) => {
      const annotations: Record<string, boolean> = {};
      const given = (tool.annotations ?? {}) as Record<string, unknown>;
      for (const hint of hints) if (typeof given[hint] === 'boolean') annotations[hint] = given[hint] as boolean;
      let inputSchema: unknown = tool.inputSchema;
      if (inputSchema !== undefined && typeof inputSchema !== 'string') {
        try {
          inputSchema = JSON.stringify(inputSchema);
        } catch {
          inputSchema = '(unreadable)';
        }
      }
      return {
        name: typeof tool.name === 'string' ? tool.name : undefined,
        title: typeof tool.title === 'string' ? tool.title : undefined,
        description: typeof tool.description === 'string' ? tool.description : undefined,
        inputSchema,
        annotations,
      };
    });
    // Read after the list: every tool in it was registered, and so recorded, before this.
    let registrations: string | undefined;
    try {
      const reader = scope[registrationsKey];
      const text: unknown = typeof reader === 'function' ? reader() : undefined;
      if (typeof text === 'string') registrations = text;
    } catch {
      // No records: every tool is taken as registered out of the hook's sight.
    }
    return {
      ok: true,
      value: { tools: value, ...(registrations !== undefined ? { registrations } : {}) },
      url: location.href,
    };
  } catch (error) {
    return { ok: false, error: `The page's tools could not be listed: ${String(error)}`, url: location.href };
  }
}

/**
 * Runs the tool unless the page has made it stricter than the gates took it to be since the panel
 * read it (registered it again destructive, or out of the hook's sight): then nothing runs and
 * the answer says so. `registrationsKey` is null where the hook's records cannot be trusted.
 */
export async function runPageToolInMainWorld(
  name: string,
  input: Record<string, unknown>,
  gatedAs: Strictness,
  registrationsKey: string | null,
): Promise<MainWorldAnswer<string | null>> {
  type Registered = { name?: unknown; window?: unknown; annotations?: unknown };
  const scope = globalThis as unknown as {
    document: { modelContext?: ModelContextLike };
    navigator: { modelContext?: ModelContextLike };
  } & Record<string, unknown>;
  interface ModelContextLike {
    getTools?: () => Promise<Registered[]>;
    executeTool?: (tool: Registered, input: Record<string, unknown>) => Promise<unknown>;
  }
  const context = scope.document.modelContext ?? scope.navigator.modelContext;
  if (!context || typeof context.getTools !== 'function' || typeof context.executeTool !== 'function') {
    return { ok: false, error: 'The page no longer offers WebMCP tools.', url: location.href };
  }
  try {
    const tool = (await context.getTools()).find(
      (candidate) => candidate.name === name && (candidate.window === undefined || candidate.window === window),
    );
    if (!tool) return { ok: false, error: `The page no longer declares the tool ${name}.`, url: location.href };
    if (gatedAs !== 'every-call') {
      let record: { readOnlyHint?: unknown; destructiveHint?: unknown } | undefined;
      try {
        const reader = registrationsKey === null ? undefined : scope[registrationsKey];
        const found: unknown = typeof reader === 'function' ? reader(name) : undefined;
        if (typeof found === 'object' && found !== null) record = found;
      } catch {
        // No record: the tool counts as registered out of the hook's sight.
      }
      const hints = (
        typeof tool.annotations === 'object' && tool.annotations !== null ? tool.annotations : {}
      ) as Record<string, unknown>;
      const destructive =
        !record ||
        record.destructiveHint !== false ||
        hints.consequentialHint === true ||
        hints.destructiveHint === true;
      const readOnly = record?.readOnlyHint === true && hints.readOnlyHint === true;
      if (destructive || (gatedAs === 'read' && !readOnly)) {
        return {
          ok: false,
          changed: true,
          error: `The page changed how it marks ${name} since Tabwright read its tools, so it was not run. Call it again.`,
          url: location.href,
        };
      }
    }
    const raw = await context.executeTool(tool, input);
    return {
      ok: true,
      value: typeof raw === 'string' ? raw : raw == null ? null : JSON.stringify(raw),
      url: location.href,
    };
  } catch (error) {
    return { ok: false, error: `The page's ${name} tool failed: ${String(error)}`, url: location.href };
  }
}
