import type { AgentContext } from '@agentclientprotocol/sdk/unstable';
import { describe, expect, it } from 'vitest';
import { acpDeclarations } from './acp-host';
import { PanelServer, TunnelError } from './panel-tools';

const declaration = { type: 'acp' as const, id: 'a1', name: 'tabwright' };

/** A panel context that fails the test if anything is sent. */
const silent = new Proxy({} as AgentContext, {
  get: () => () => {
    throw new Error('nothing may be sent');
  },
});

describe('PanelServer limits', () => {
  it('refuses arguments that would not fit a 1 MiB method frame, before sending anything', async () => {
    const server = new PanelServer(silent, declaration, 'a', { connectionSignal: new AbortController().signal });
    const call = server.call('tabwright.type', { ref: 'e1', text: 'x'.repeat(1024 * 1024) });
    await expect(call).rejects.toBeInstanceOf(TunnelError);
    await expect(call).rejects.toMatchObject({ failure: 'too_large', message: expect.stringMatching(/at most 1 MiB/) });
  });

  it('says the browser disconnected once the socket is gone', async () => {
    const gone = new AbortController();
    gone.abort();
    const server = new PanelServer(silent, declaration, 'b', { connectionSignal: gone.signal });
    await expect(server.call('tabwright.snapshot', {})).rejects.toMatchObject({ failure: 'disconnected' });
  });
});

describe('PanelServer tool listing', () => {
  it('shares one listing: a client that gives up stops waiting, and the others still get the tools', async () => {
    let answer!: (tools: unknown) => void;
    const listings: string[] = [];
    const panel = {
      request: async (method: string, params: { method?: string }) => {
        if (method === 'mcp/connect') return { connectionId: 'c1' };
        if (params.method === 'tools/list') {
          listings.push('tools/list');
          return new Promise((resolve) => (answer = resolve));
        }
        return {};
      },
      notify: async () => undefined,
    } as unknown as AgentContext;
    const server = new PanelServer(panel, declaration, 'a', { connectionSignal: new AbortController().signal });
    const leaving = new AbortController();
    const first = server.tools(leaving.signal);
    const second = server.tools();
    await expect.poll(() => listings.length).toBe(1);
    leaving.abort();
    await expect(first).rejects.toMatchObject({ failure: 'cancelled' });
    answer({ tools: [{ name: 'tabwright.snapshot', inputSchema: { type: 'object' } }] });
    expect((await second).map((tool) => tool.name)).toEqual(['tabwright.snapshot']);
    expect((await server.tools()).map((tool) => tool.name)).toEqual(['tabwright.snapshot']);
    expect(listings).toHaveLength(1);
  });
});

describe('acpDeclarations', () => {
  const acp = (n: number) => ({ type: 'acp', id: `id-${n}`, name: `server${n}` });

  it('keeps the acp servers and ignores the others', () => {
    expect(
      acpDeclarations({ mcpServers: [acp(1), { type: 'http', name: 'x', url: 'http://x', headers: [] }] }),
    ).toEqual([acp(1)]);
    expect(acpDeclarations({})).toEqual([]);
  });

  it('enforces the contract: at most 8, each named and identified, names unique', () => {
    expect(acpDeclarations({ mcpServers: Array.from({ length: 8 }, (_, n) => acp(n)) })).toHaveLength(8);
    expect(() => acpDeclarations({ mcpServers: Array.from({ length: 9 }, (_, n) => acp(n)) })).toThrow(/At most 8/);
    expect(() => acpDeclarations({ mcpServers: [{ type: 'acp', name: 'x' }] })).toThrow(/name and an id/);
    expect(() => acpDeclarations({ mcpServers: [acp(1), { ...acp(2), name: 'server1' }] })).toThrow(/unique/);
    expect(() => acpDeclarations({ mcpServers: 'nope' })).toThrow(/array/);
  });
});
