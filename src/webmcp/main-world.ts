/**
 * Functions that run in the page's main world through `chrome.scripting.executeScript({ world:
 * 'MAIN' })`, where WebMCP's `document.modelContext` lives (Chromium exposes it to the page's own
 * scripts, not to an extension's isolated world). Chrome serialises each function's source, so
 * every one is self-contained. Only tools of the top document itself are read or run: Chromium's
 * list can also hold tools of its frames, each marked with the window that declared it.
 */
import type { MainWorldAnswer } from './page-access';
import type { DeclaredPageTool } from './page-tools';

export async function listPageToolsInMainWorld(): Promise<MainWorldAnswer<DeclaredPageTool[]>> {
  type Registered = Record<string, unknown> & { window?: unknown };
  const scope = globalThis as unknown as {
    document: { modelContext?: { getTools?: () => Promise<Registered[]> } };
    navigator: { modelContext?: { getTools?: () => Promise<Registered[]> } };
  };
  const context = scope.document.modelContext ?? scope.navigator.modelContext;
  if (!context || typeof context.getTools !== 'function') return { ok: true, value: [], url: location.href };
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
    return { ok: true, value, url: location.href };
  } catch (error) {
    return { ok: false, error: `The page's tools could not be listed: ${String(error)}`, url: location.href };
  }
}

export async function runPageToolInMainWorld(
  name: string,
  input: Record<string, unknown>,
): Promise<MainWorldAnswer<string | null>> {
  type Registered = { name?: unknown; window?: unknown };
  const scope = globalThis as unknown as {
    document: { modelContext?: ModelContextLike };
    navigator: { modelContext?: ModelContextLike };
  };
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
