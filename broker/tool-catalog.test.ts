import { describe, expect, it } from 'vitest';
import { browserTools } from '../src/mcp-server/tools/index';
import { TunnelError, type CallToolResult, type McpTool, type PanelServer } from './panel-tools';
import type { BrokerSession } from './sessions';
import { builtInTools, NO_BROWSER_ACCESS, NOT_CONNECTED, ToolCatalog } from './tool-catalog';

function fakeServer(name: string, tools: string[], call: () => Promise<CallToolResult>): PanelServer {
  const listing: McpTool[] = tools.map((tool) => ({ name: tool, inputSchema: { type: 'object' } }));
  return { name, tools: async () => listing, call } as unknown as PanelServer;
}

function session(servers: PanelServer[], attached = true): BrokerSession {
  return { client: attached ? {} : undefined, servers, browserName: undefined } as unknown as BrokerSession;
}

const ok = (text: string) => async (): Promise<CallToolResult> => ({ content: [{ type: 'text', text }] });
const text = (result: CallToolResult) => result.content.map((block) => ('text' in block ? block.text : '')).join('');

describe('ToolCatalog', () => {
  it('lists the shared registry’s browser tools while no panel is attached, and says why calls fail', async () => {
    const catalog = new ToolCatalog(() => undefined);
    const listed = await catalog.list();
    expect(listed.map((tool) => tool.name)).toEqual(browserTools.map((tool) => `tabwright.${tool.name}`));
    expect(listed).toBe(builtInTools('tabwright'));
    expect(text(await catalog.call('tabwright.click', {}))).toBe(NOT_CONNECTED);
    expect(text(await catalog.call('fossil.list_my_tickets', {}))).toBe(NOT_CONNECTED);
    expect(text(await catalog.call('bogus', {}))).toMatch(/^Unknown tool bogus\. Available tools: tabwright\.snapshot/);
  });

  it('merges the attached panel’s servers and routes each call to the server that listed it', async () => {
    const browser = fakeServer('browser', ['browser.snapshot', 'browser.click'], ok('clicked'));
    const fossil = fakeServer('fossil', ['fossil.list_my_tickets'], ok('tickets'));
    const current = session([browser, fossil]);
    const catalog = new ToolCatalog(() => current);
    expect((await catalog.list()).map((tool) => tool.name)).toEqual([
      'browser.snapshot',
      'browser.click',
      'fossil.list_my_tickets',
    ]);
    expect(text(await catalog.call('fossil.list_my_tickets', {}))).toBe('tickets');
    expect(text(await catalog.call('browser.click', {}))).toBe('clicked');
    // Detached again, the built-ins keep the browser server's last name.
    current.client = undefined;
    expect((await catalog.list())[0]!.name).toBe('browser.snapshot');
  });

  it('lists nothing when the panel gives the agent no tools', async () => {
    const catalog = new ToolCatalog(() => session([]));
    expect(await catalog.list()).toEqual([]);
    expect(text(await catalog.call('tabwright.snapshot', {}))).toBe(NO_BROWSER_ACCESS);
  });

  it('goes on offering nothing while the panel of a session without tools is away', async () => {
    const current = { ...session([]), declared: [], attachedAt: 1 } as BrokerSession;
    const catalog = new ToolCatalog(() => current);
    current.client = undefined;
    expect(await catalog.list()).toEqual([]);
    expect(text(await catalog.call('tabwright.snapshot', {}))).toBe(NO_BROWSER_ACCESS);
  });

  it('turns tunnel failures into results that say what to do next', async () => {
    const failing = (failure: TunnelError['failure']) =>
      new ToolCatalog(() =>
        session([
          fakeServer('tabwright', ['tabwright.click'], async () => {
            throw new TunnelError('boom', failure);
          }),
        ]),
      );
    const disconnected = await failing('disconnected').call('tabwright.click', {});
    expect(disconnected.isError).toBe(true);
    expect(text(disconnected)).toMatch(/disconnected before the call finished.*take a snapshot/);
    expect(text(await failing('refused').call('tabwright.click', {}))).toBe('The browser refused the call: boom');
    expect(text(await failing('timeout').call('tabwright.click', {}))).toMatch(/^boom Check the page/);
  });

  it('on an agent’s own endpoint lists the browser tools bare and calls each under its full name', async () => {
    const calls: string[] = [];
    const server = (name: string, tools: string[]): PanelServer =>
      ({
        name,
        tools: async () => tools.map((tool) => ({ name: tool, inputSchema: { type: 'object' } })),
        call: async (tool: string) => {
          calls.push(tool);
          return { content: [{ type: 'text', text: `ran ${tool}` }] };
        },
      }) as unknown as PanelServer;
    const browserNames = browserTools.map((tool) => `tabwright.${tool.name}`);
    const current = session([
      server('tabwright', browserNames),
      server('fossil', ['fossil.list_my_tickets']),
      server('page.app-example-com', ['page.app-example-com.search']),
    ]);
    const logs: string[] = [];
    const catalog = new ToolCatalog(
      () => current,
      (line) => logs.push(line),
      { bareBrowserNames: true },
    );
    const listed = (await catalog.list()).map((tool) => tool.name);
    expect(listed).toEqual([
      ...browserTools.map((tool) => tool.name),
      'fossil.list_my_tickets',
      'page.app-example-com.search',
    ]);
    expect(listed.filter((name) => name.startsWith('tabwright.'))).toEqual([]);
    expect(text(await catalog.call('snapshot', {}))).toBe('ran tabwright.snapshot');
    expect(text(await catalog.call('fossil.list_my_tickets', {}))).toBe('ran fossil.list_my_tickets');
    expect(text(await catalog.call('page.app-example-com.search', {}))).toBe('ran page.app-example-com.search');
    expect(calls).toEqual(['tabwright.snapshot', 'fossil.list_my_tickets', 'page.app-example-com.search']);
    // The full name is not a second name for the same tool.
    expect(text(await catalog.call('tabwright.snapshot', {}))).toMatch(
      /^Unknown tool tabwright\.snapshot\. Available tools: snapshot/,
    );

    // Detached, the built-ins are listed bare too, and a bare name says the browser is away.
    current.client = undefined;
    expect((await catalog.list()).map((tool) => tool.name)).toEqual(browserTools.map((tool) => tool.name));
    expect(text(await catalog.call('snapshot', {}))).toBe(NOT_CONNECTED);
    expect(logs).toEqual([]);
  });

  it('still lists the browser tools, from the manifest, when the panel could not list them', async () => {
    const calls: string[] = [];
    const failing = (name: string): PanelServer =>
      ({
        name,
        tools: async () => {
          throw new TunnelError('The browser did not answer within 60 s; the call was cancelled.', 'timeout');
        },
        call: async (tool: string) => {
          calls.push(tool);
          return { content: [{ type: 'text', text: `ran ${tool}` }] };
        },
      }) as unknown as PanelServer;
    const logs: string[] = [];
    const catalog = new ToolCatalog(
      () => session([failing('tabwright'), failing('fossil')]),
      (line) => logs.push(line),
      { bareBrowserNames: true },
    );
    expect((await catalog.list()).map((tool) => tool.name)).toEqual(browserTools.map((tool) => tool.name));
    expect(text(await catalog.call('snapshot', {}))).toBe('ran tabwright.snapshot');
    expect(calls).toEqual(['tabwright.snapshot']);
    expect(logs[0]).toMatch(/could not list the tools of tabwright \(listing its browser tools from the manifest\)/);
    expect(logs[1]).toMatch(/could not list the tools of fossil: The browser did not answer/);
  });

  it('refuses a bare name another server already lists: that browser tool keeps its full name', async () => {
    const browser = fakeServer('tabwright', ['tabwright.snapshot', 'tabwright.click'], ok('browser'));
    const other = fakeServer('odd', ['click'], ok('odd'));
    const logs: string[] = [];
    const catalog = new ToolCatalog(
      () => session([browser, other]),
      (line) => logs.push(line),
      {
        bareBrowserNames: true,
      },
    );
    expect((await catalog.list()).map((tool) => tool.name)).toEqual(['snapshot', 'tabwright.click', 'click']);
    expect(text(await catalog.call('click', {}))).toBe('odd');
    expect(text(await catalog.call('tabwright.click', {}))).toBe('browser');
    expect(logs.at(-1)).toMatch(/tabwright\.click keeps its full name: another server lists a tool named click/);
  });
});
