/** An instrumented MCP tool server for tunnel tests: it records every call that reached a tool. */
import { z } from 'zod';
import type { CallMeta, ToolServer } from '../../src/mcp-server/mcp-core';
import { ToolRegistry, describeArgumentErrors } from '../../src/mcp-server/registry';
import type { ToolSpec } from '../../src/mcp-server/tool-spec';
import { ResponseBuilder, type CallToolResult } from '../../src/mcp-server/response';

interface FakeTool extends ToolSpec {
  run(args: Record<string, unknown>, meta: CallMeta): Promise<CallToolResult>;
}

export class FakeToolServer implements ToolServer {
  readonly version = '1.0.0';
  readonly calls: Array<{ tool: string; args: unknown }> = [];
  readonly aborted: string[] = [];
  registry: ToolRegistry<FakeTool>;

  constructor(
    readonly name: string,
    extraTools: string[] = [],
  ) {
    const tools: FakeTool[] = [
      {
        name: 'echo',
        description: 'Echo the text back',
        input: z.object({ text: z.string().describe('What to echo') }),
        title: 'Test tool',
        effect: 'read',
        scope: 'tabs',
        run: async (args) => new ResponseBuilder().text(`${this.name} says ${String(args.text)}`).build(),
      },
      {
        name: 'slow',
        description: 'Wait until cancelled or the time is up',
        input: z.object({ ms: z.number().int().min(0).describe('How long to wait') }),
        title: 'Test tool',
        effect: 'read',
        scope: 'tabs',
        run: (args, meta) =>
          new Promise<CallToolResult>((resolve) => {
            const timer = setTimeout(() => resolve(new ResponseBuilder().text('finished').build()), Number(args.ms));
            meta.signal.addEventListener('abort', () => {
              clearTimeout(timer);
              this.aborted.push(meta.requestId);
              resolve(new ResponseBuilder().error('cancelled').build());
            });
          }),
      },
      ...extraTools.map((name): FakeTool => ({
        name,
        description: `Extra tool ${name}`,
        input: z.object({}),
        title: 'Test tool',
        effect: 'read',
        scope: 'tabs',
        run: async () => new ResponseBuilder().text(name).build(),
      })),
    ];
    this.registry = new ToolRegistry(name, tools);
  }

  list() {
    return this.registry.list();
  }

  async call(name: string, args: Record<string, unknown> | undefined, meta: CallMeta): Promise<CallToolResult> {
    const tool = this.registry.lookup(name);
    if (!tool) return new ResponseBuilder().error(`Unknown tool ${name}`).build();
    const parsed = tool.input.safeParse(args ?? {});
    if (!parsed.success)
      return new ResponseBuilder().error(`Invalid arguments: ${describeArgumentErrors(parsed.error)}`).build();
    this.calls.push({ tool: tool.name, args: parsed.data });
    return tool.run(parsed.data as Record<string, unknown>, meta);
  }
}
