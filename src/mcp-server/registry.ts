/**
 * One registry per MCP server: `tools/list` is derived from it, and a call can only reach a tool
 * that is listed, so nothing is advertised without an implementation or the other way round.
 */
import { z } from 'zod';
import { annotationsOf, type ToolAnnotations, type ToolSpec } from './tool-spec';

export interface ToolListing {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Partial<ToolAnnotations>;
}

export function inputJsonSchema(input: z.ZodObject): Record<string, unknown> {
  const schema = z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

export function outputJsonSchema(output: z.ZodObject): Record<string, unknown> {
  const schema = z.toJSONSchema(output, { io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  return schema;
}

/** How a tool is listed on the server `serverName`: derived from its spec, never written by hand. */
export function listingOf(serverName: string, tool: ToolSpec): ToolListing {
  return {
    name: `${serverName}.${tool.name}`,
    title: tool.title,
    description: tool.description,
    inputSchema: tool.inputSchema ?? inputJsonSchema(tool.input),
    ...(tool.output ? { outputSchema: outputJsonSchema(tool.output) } : {}),
    annotations: annotationsOf(tool),
  };
}

export class ToolRegistry<T extends ToolSpec> {
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
      if (!tool.title.trim()) throw new Error(`Tool ${tool.name} has no title`);
      this.#tools.set(tool.name, tool);
      this.#listings.set(tool.name, listingOf(serverName, tool));
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
