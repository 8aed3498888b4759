import { describe, expect, it } from 'vitest';
import { BRIDGE_TOKEN_ENV, mcpServersForAgent } from './child-mcp-servers';

const endpoint = {
  url: 'http://127.0.0.1:9/mcp/s1',
  token: 'T0K',
  bridge: { command: '/usr/bin/node', args: ['bridge.ts'] },
};
const declared = [
  { type: 'acp', id: 'a', serverId: 'a', name: 'tabwright' },
  { type: 'acp', id: 'b', name: 'fossil' },
];

describe('mcpServersForAgent', () => {
  it('replaces the acp entries with one HTTP server carrying the bearer header', () => {
    expect(mcpServersForAgent(declared, endpoint, { http: true })).toEqual([
      { type: 'http', name: 'tabwright', url: endpoint.url, headers: [{ name: 'Authorization', value: 'Bearer T0K' }] },
    ]);
  });

  it('offers the server even when the panel declared none, so tools can arrive later', () => {
    expect(mcpServersForAgent([], endpoint, { http: true })).toHaveLength(1);
  });

  it('falls back to the stdio bridge, with the token in the environment only', () => {
    const [bridge] = mcpServersForAgent(declared, endpoint, {});
    expect(bridge).toEqual({
      name: 'tabwright',
      command: '/usr/bin/node',
      args: ['bridge.ts', endpoint.url],
      env: [{ name: BRIDGE_TOKEN_ENV, value: 'T0K' }],
    });
    expect(JSON.stringify((bridge as { args: string[] }).args)).not.toContain('T0K');
  });

  it('sends no header without a token, and keeps other servers under a distinct name', () => {
    const other = { name: 'tabwright', command: 'x', args: [], env: [] };
    const servers = mcpServersForAgent([other, ...declared], { ...endpoint, token: '' }, { http: true });
    expect(servers).toEqual([other, { type: 'http', name: 'tabwright-2', url: endpoint.url, headers: [] }]);
  });
});
