/**
 * Elements named by role and name on a call's path through the gated server: looked up once, before
 * the card, as the refs they name; the card and the audit entry show what was asked and what it
 * named; the tool runs with that ref; a lookup that fails ends the call before anyone is asked.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PageCommand } from '../page/protocol';
import type { TargetQuery } from '../page/target-match';
import type { PageTransport, TabInfo } from './browser-port';
import { GatedServer, type ToolKind } from './gated-server';
import { Blocklist } from './gates/blocklist';
import { SessionGrants } from './gates/call-gate';
import { createGateEnvironment } from './gates/environment';
import { MASK } from './gates/redact';
import type { AuditEntry, ConfirmRequest } from './gates/types';
import { ToolRegistry } from './registry';
import type { CallToolResult } from './response';
import { TargetArg } from './target-args';
import { targetOf, type ToolSpec } from './tool-spec';
import { refArg } from './tools/action-args';

const SITE = 'https://app.example';
const TAB: TabInfo = { id: 1, windowId: 1, url: `${SITE}/orders`, title: 't', active: true, loading: false };

const PAGE = [
  '- row "Order 1002"',
  '  - button "Delete" [e9]',
  '- row "Order 1003"',
  '  - button "Delete" [e11]',
  '- region "Done" [e20]',
  '- textbox "Password" [e30]',
];

const clickTool: ToolSpec = {
  name: 'click',
  title: 'Click',
  description: 'click',
  input: z.object({ ref: z.string().optional(), target: TargetArg.optional() }),
  effect: 'write',
  scope: 'page',
  resolvesTargets: true,
};
const typeTool: ToolSpec = {
  ...clickTool,
  name: 'type',
  input: z.object({ ref: z.string().optional(), target: TargetArg.optional(), text: z.string() }),
  typedInto: (args) => targetOf(args as { ref?: string }),
};
const hoverTool: ToolSpec = { ...clickTool, name: 'hover', effect: 'read' };
const pageDeclaredTool: ToolSpec = {
  ...clickTool,
  name: 'book',
  input: z.object({ target: z.object({ name: z.string() }) }),
  resolvesTargets: false,
};

function call(tool: ToolSpec, rawArgs: Record<string, unknown>, options: { secret?: string[]; lines?: string[] } = {}) {
  const audit: AuditEntry[] = [];
  const asked: ConfirmRequest[] = [];
  const ran: Array<Record<string, unknown>> = [];
  const lookups: TargetQuery[][] = [];
  const inspected: string[][] = [];
  const env = createGateEnvironment({
    now: () => 1000,
    killed: () => false,
    actMode: () => true,
    allowedSites: () => [SITE],
    screenshots: () => false,
    blocklist: () => new Blocklist([]),
    hasHostPermission: async () => true,
    hasAllUrls: async () => true,
    secretValues: () => [],
    confirm: async (request) => {
      asked.push(request);
      return 'once';
    },
    audit: (entry) => audit.push(entry),
  });
  const transport: PageTransport = {
    frames: async () => [{ frameId: 0, parentFrameId: -1, url: TAB.url!, documentId: 'd0' }],
    send: async (_tabId, command: PageCommand) => {
      if (command.op !== 'inspectTargets') throw new Error(`unexpected ${command.op}`);
      const refs = command.targets.map((target) => ('ref' in target ? target.ref : target.selector));
      inspected.push(refs);
      const targets = refs.map((ref) => ({
        found: true as const,
        secret: options.secret?.includes(ref) ?? false,
        role: 'button',
        name: `now ${ref}`,
      }));
      return { value: { targets }, url: TAB.url!, documentId: 'p0' } as never;
    },
  };
  const kind: ToolKind<ToolSpec> = {
    name: 'tabwright',
    version: '0',
    offer: () => new ToolRegistry('tabwright', [tool]),
    findTab: async () => TAB,
    readTargets: async (_call, queries) => {
      lookups.push(queries);
      return { url: TAB.url!, lines: options.lines ?? PAGE };
    },
    run: async (session, _tool, args) => {
      ran.push(args);
      session.response.text(`done with ${JSON.stringify(args)}`);
    },
  };
  const server = new GatedServer(kind, {
    agentName: () => 'Agent',
    gates: env,
    grants: new SessionGrants(),
    page: transport,
  });
  const result = () =>
    server.call(`tabwright.${tool.name}`, rawArgs, { signal: new AbortController().signal, requestId: '1' });
  return { result, audit, asked, ran, lookups, inspected };
}

const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('targets on a call’s path', () => {
  it('looks the target up once, shows the element it named on the card, and runs with exactly that ref', async () => {
    const target = { role: 'button', name: 'Delete', nth: 2 };
    const c = call(clickTool, { target });
    const result = await c.result();
    expect(result.isError).toBeFalsy();
    expect(c.lookups).toEqual([[{ role: 'button', name: 'Delete' }]]);
    expect(c.inspected).toEqual([['e11']]);
    expect(c.asked[0]?.args).toEqual({ target });
    expect(c.asked[0]?.targets).toEqual([
      { target: 'button "Delete" nth=2 → e11', element: { role: 'button', name: 'now e11' } },
    ]);
    expect(c.ran).toEqual([{ ref: 'e11', target }]);
    expect(c.audit).toHaveLength(1);
    expect(c.audit[0]).toMatchObject({ outcome: 'ok', args: { target }, targets: ['button "Delete" nth=2 → e11'] });
  });

  it('takes a ref copied off its line, brackets and all, as the ref it prints', async () => {
    const tool: ToolSpec = { ...clickTool, input: z.object({ ref: refArg }) };
    for (const ref of ['[e11]', ' e11 ', 'ref=e11', '[ref=e11]']) {
      const c = call(tool, { ref });
      expect((await c.result()).isError, ref).toBeFalsy();
      expect(c.inspected).toEqual([['e11']]);
      expect(c.ran).toEqual([{ ref: 'e11' }]);
    }
  });

  it('refuses several matches without nth before anyone is asked, listing them as page content', async () => {
    const c = call(clickTool, { target: { role: 'button', name: 'Delete' } });
    const result = await c.result();
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/2 elements on the page are printed as button "Delete": pass `nth`/);
    expect(text(result)).toContain(
      `<untrusted origin="${SITE}">\n1. button "Delete" [e9] · in row "Order 1002"\n2. button "Delete" [e11]`,
    );
    expect(c.asked).toEqual([]);
    expect(c.ran).toEqual([]);
    expect(c.inspected).toEqual([]);
    expect(c.audit[0]).toMatchObject({ outcome: 'error', detail: expect.stringMatching(/pass `nth`/) });
    expect(c.audit[0]).not.toHaveProperty('targets');
  });

  it('refuses a target that names nothing, and runs nothing', async () => {
    const c = call(clickTool, { target: { role: 'region', name: 'Archive' } });
    const result = await c.result();
    expect(text(result)).toMatch(/No element on the page is printed as region "Archive".*call find/);
    expect(c.asked).toEqual([]);
    expect(c.ran).toEqual([]);
  });

  it('masks what is typed into a password field named by role and name, on the card, in the log and in the result', async () => {
    const target = { role: 'textbox', name: 'Password' };
    const c = call(typeTool, { target, text: 'hunter2-secret' }, { secret: ['e30'] });
    const result = await c.result();
    expect(c.asked[0]?.args).toEqual({ target, text: MASK });
    expect(c.audit[0]?.args).toEqual({ target, text: MASK });
    expect(JSON.stringify(c.ran)).toContain('hunter2-secret');
    expect(text(result)).not.toContain('hunter2-secret');
  });

  it('masks what was to be typed when the target could not be found, since nothing vouched for the field', async () => {
    const target = { role: 'textbox', name: 'Pasword' };
    const c = call(typeTool, { target, text: 'hunter2-secret' });
    await c.result();
    expect(c.audit[0]?.args).toEqual({ target, text: MASK });
  });

  it('looks targets up for tools that only reveal, with no card', async () => {
    const c = call(hoverTool, { target: { role: 'region', name: 'Done' } });
    await c.result();
    expect(c.asked).toEqual([]);
    expect(c.ran).toEqual([{ ref: 'e20', target: { role: 'region', name: 'Done' } }]);
    expect(c.audit[0]?.targets).toEqual(['region "Done" → e20']);
  });

  it('leaves a `target` alone in a tool that does not ask for the lookup', async () => {
    const c = call(pageDeclaredTool, { target: { name: 'Delete' } });
    await c.result();
    expect(c.lookups).toEqual([]);
    expect(c.ran).toEqual([{ target: { name: 'Delete' } }]);
  });
});
