/**
 * The ACP SDK binding (its MCP-over-ACP binding, MCP 2026-07-28), against a peer that calls the
 * panel with the SDK's own McpOverAcpCaller.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSdkPeer, type SdkPeer } from '../peers/sdk-agent-peer';
import { FakeToolServer } from './fake-tools';
import { panelClient, until } from './panel-client';

const ID_ONE = '9a0c1b2d-0000-4000-8000-00000000000a';
const ID_TWO = '9a0c1b2d-0000-4000-8000-00000000000b';

let peer: SdkPeer;
let one: FakeToolServer;
let two: FakeToolServer;
let client: ReturnType<typeof panelClient>;
let session: string;

beforeEach(async () => {
  peer = await startSdkPeer({});
  one = new FakeToolServer('tabwright');
  two = new FakeToolServer('redmine', ['list_my_issues']);
  client = panelClient({
    url: peer.url,
    dialect: 'b',
    servers: [
      { acpId: ID_ONE, server: one },
      { acpId: ID_TWO, server: two },
    ],
  });
  client.connection.enable();
  await until(() => client.recorded.sessions.length === 1);
  session = client.sessionId!;
});
afterEach(async () => {
  client.connection.disable();
  await peer.close();
});

describe('the ACP SDK binding', () => {
  it('declares {type, name, serverId} when set to the ACP SDK binding', () => {
    expect(peer.declared.get(session)).toEqual([
      { type: 'acp', name: 'tabwright', serverId: ID_ONE },
      { type: 'acp', name: 'redmine', serverId: ID_TWO },
    ]);
  });

  it('discovers statelessly and lists tools with or without params', async () => {
    const discovered = (await peer.mcp(session, 0, 'server/discover')) as { result: Record<string, unknown> };
    expect(discovered.result).toMatchObject({
      supportedVersions: expect.arrayContaining(['2026-07-28']),
      capabilities: { tools: { listChanged: true } },
      resultType: 'complete',
    });
    const listed = (await peer.mcp(session, 0, 'tools/list')) as { result: { tools: Array<{ name: string }> } };
    expect(listed.result.tools.map((t) => t.name)).toEqual(['tabwright.echo', 'tabwright.slow']);
  });

  it('calls a tool and carries an inner error in the outcome, not as an ACP error', async () => {
    expect(
      await peer.mcp(session, 0, 'tools/call', { name: 'tabwright.echo', arguments: { text: 'b' } }),
    ).toMatchObject({
      result: { content: [{ type: 'text', text: 'tabwright says b' }] },
    });
    expect(await peer.mcp(session, 0, 'resources/list')).toMatchObject({ error: { code: -32601 } });
    expect(one.calls).toEqual([{ tool: 'echo', args: { text: 'b' } }]);
  });

  it('cancellation ($/cancel_request) reaches the tool', async () => {
    const controller = new AbortController();
    const call = peer
      .mcp(session, 0, 'tools/call', { name: 'tabwright.slow', arguments: { ms: 60_000 } }, controller.signal)
      .catch((e: unknown) => e);
    await until(() => one.calls.length === 1);
    controller.abort();
    await until(() => one.aborted.length === 1, 5_000, 'the tool to be aborted');
    await call;
  });

  it('serves two servers on one socket by serverId', async () => {
    expect(await peer.mcp(session, 1, 'tools/call', { name: 'redmine.echo', arguments: { text: 'r' } })).toMatchObject({
      result: { content: [{ text: 'redmine says r' }] },
    });
    expect(two.calls).toHaveLength(1);
    expect(one.calls).toHaveLength(0);
  });

  it('keeps the same server ids across a reconnect', async () => {
    client.connection.disable();
    client.connection.enable();
    await until(() => client.recorded.sessions.length === 2);
    const latest = client.sessionId!;
    expect(peer.declared.get(latest)!.map((d) => d.serverId)).toEqual([ID_ONE, ID_TWO]);
    expect(
      await peer.mcp(latest, 0, 'tools/call', { name: 'tabwright.echo', arguments: { text: 'again' } }),
    ).toMatchObject({
      result: { content: [{ text: 'tabwright says again' }] },
    });
  });
});
