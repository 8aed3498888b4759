/**
 * One registry per MCP server: `tools/list` is derived from it, and a call can only reach a tool
 * that is listed, so nothing is advertised without an implementation or the other way round.
 */
import { z } from 'zod';

export interface ToolListing {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: { readOnlyHint?: boolean; destructiveHint?: boolean; title?: string };
}

/** What every served tool has in common, whatever kind of server it belongs to. */
export interface RegisteredTool {
  /** Bare name within the server, e.g. `snapshot`. */
  readonly name: string;
  readonly description: string;
  readonly input: z.ZodObject;
  /** Writes need act mode and confirmation; reads need neither. */
  readonly write: boolean;
}

export function inputJsonSchema(input: z.ZodObject): Record<string, unknown> {
  const schema = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

export class ToolRegistry<T extends RegisteredTool> {
  readonly #tools = new Map<string, T>();
  readonly #listings = new Map<string, ToolListing>();

  constructor(
    /** The declared server name, used as the tool-name prefix (`tabwright.snapshot`). */
    readonly serverName: string,
    tools: Iterable<T>,
  ) {
    for (const tool of tools) {
      if (this.#tools.has(tool.name)) throw new Error(`Tool ${tool.name} is registered twice`);
      if (!tool.description.trim()) throw new Error(`Tool ${tool.name} has no description`);
      this.#tools.set(tool.name, tool);
      this.#listings.set(tool.name, {
        name: `${serverName}.${tool.name}`,
        description: tool.description,
        inputSchema: inputJsonSchema(tool.input),
        annotations: { readOnlyHint: !tool.write, destructiveHint: tool.write },
      });
    }
  }

  list(): ToolListing[] {
    return [...this.#listings.values()];
  }

  /** Accepts the namespaced name, and the bare name as a courtesy. */
  lookup(name: string): T | undefined {
    const prefix = `${this.serverName}.`;
    return this.#tools.get(name.startsWith(prefix) ? name.slice(prefix.length) : name);
  }

  get size(): number {
    return this.#tools.size;
  }
}

/** zod's issues, phrased so the model can fix its arguments. */
export function describeArgumentErrors(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(arguments)'}: ${issue.message}`)
    .join('; ');
}
