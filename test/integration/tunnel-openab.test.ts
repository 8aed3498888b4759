/**
 * The OpenAB tunnel (OpenAB's contract). Exact frames come from a raw JSON-RPC peer; the same
 * flows are then checked through the project's broker. The panel side is the real client.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { startRawPeer, type Frame, type RawPeer } from '../peers/raw-acp-peer';
import { FakeToolServer } from './fake-tools';
import { panelClient, until } from './panel-client';

const ID_ONE = '7d3f2a10-0000-4000-8000-00000000000a';
const ID_TWO = '7d3f2a10-0000-4000-8000-00000000000b';

describe('the OpenAB tunnel against a raw peer', () => {
  let peer: RawPeer;
  let one: FakeToolServer;
  let two: FakeToolServer;
  let client: ReturnType<typeof panelClient>;

  beforeEach(async () => {
    peer = await startRawPeer();
    one = new FakeToolServer('tabwright');
    two = new FakeToolServer('fossil', ['list_my_tickets']);
    client = panelClient({
      url: peer.url,
      dialect: 'both',
      servers: [
        { acpId: ID_ONE, server: one },
        { acpId: ID_TWO, server: two },
      ],
    });
    client.connection.enable();
    await until(() => client.recorded.sessions.length === 1);
  });
  afterEach(async () => {
    client.connection.disable();
    await peer.close();
  });

  const connect = async (acpId = ID_ONE) =>
    ((await peer.request('mcp/connect', { acpId })).result as { connectionId: string }).connectionId;
  const message = (connectionId: string, method: string, params?: unknown, id?: number) =>
    peer.request('mcp/message', { connectionId, method, ...(params === undefined ? {} : { params }) }, id);

  it('declares every server with id and serverId (same uuid) and its name', () => {
    expect(peer.declared).toEqual([
      { type: 'acp', id: ID_ONE, serverId: ID_ONE, name: 'tabwright' },
      { type: 'acp', id: ID_TWO, serverId: ID_TWO, name: 'fossil' },
    ]);
  });

  it('handshake: initialize, notifications/initialized (no reply), tools/list with and without params, ping', async () => {
    const connectionId = await connect();
    const init = await message(connectionId, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 't', version: '1' },
    });
    expect(init.result).toMatchObject({
      protocolVersion: '2025-06-18',
      capabilities: { tools: { listChanged: true } },
      serverInfo: { name: 'tabwright' },
    });
    const before = peer.inbound.length;
    peer.notify('mcp/message', { connectionId, method: 'notifications/initialized' });
    const bare = await message(connectionId, 'tools/list');
    const withParams = await message(connectionId, 'tools/list', {});
    expect(peer.inbound.slice(before).filter((f) => f.id === undefined)).toEqual([]);
    expect(bare.result).toEqual(withParams.result);
    expect((bare.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toEqual([
      'tabwright.echo',
      'tabwright.slow',
    ]);
    expect((await message(connectionId, 'ping')).result).toEqual({});
  });

  it('a call: the inner result is the outer result; an inner error is the outer error', async () => {
    const connectionId = await connect();
    const ok = await message(connectionId, 'tools/call', { name: 'tabwright.echo', arguments: { text: 'hi' } });
    expect(ok.result).toEqual({ content: [{ type: 'text', text: 'tabwright says hi' }] });
    const unknownMethod = await message(connectionId, 'resources/list');
    expect(unknownMethod.error).toMatchObject({ code: -32601 });
    const noName = await message(connectionId, 'tools/call', { arguments: {} });
    expect(noName.error).toMatchObject({ code: -32602 });
    const badArgs = await message(connectionId, 'tools/call', { name: 'tabwright.echo', arguments: { text: 5 } });
    expect(badArgs.result).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/text: /) }] });
    expect(one.calls).toEqual([{ tool: 'echo', args: { text: 'hi' } }]);
  });

  it('mcp/cancel {requestId} aborts exactly that call and the tool stops', async () => {
    const connectionId = await connect();
    const slow = message(connectionId, 'tools/call', { name: 'tabwright.slow', arguments: { ms: 60_000 } }, 4242);
    const other = message(connectionId, 'tools/call', { name: 'tabwright.slow', arguments: { ms: 300 } }, 4243);
    await until(() => one.calls.length === 2);
    peer.notify('mcp/cancel', { requestId: 4242 });
    const cancelled = await slow;
    expect(cancelled.result).toMatchObject({ isError: true });
    expect(one.aborted).toEqual(['4242']);
    expect((await other).result).toEqual({ content: [{ type: 'text', text: 'finished' }] });
    peer.notify('mcp/cancel', { requestId: 'never-sent' });
    expect((await message(connectionId, 'ping')).result).toEqual({});
  });

  it('refuses a duplicate outer id while the first call is running', async () => {
    const connectionId = await connect();
    const first = message(connectionId, 'tools/call', { name: 'tabwright.slow', arguments: { ms: 400 } }, 77);
    await until(() => one.calls.length === 1);
    peer.send({
      jsonrpc: '2.0',
      id: 77,
      method: 'mcp/message',
      params: { connectionId, method: 'tools/call', params: { name: 'tabwright.echo', arguments: { text: 'dup' } } },
    });
    const answers = await Promise.all([first, peer.waitFor((f) => f.id === 77 && 'error' in f)]);
    expect(answers[1].error).toBeDefined();
    await until(() => peer.inbound.filter((f) => f.id === 77).length === 2);
    expect(one.calls.map((c) => c.tool)).toEqual(['slow']);
  });

  it('refuses ids it never minted: unknown acpId, unknown connectionId; guesses no server', async () => {
    expect((await peer.request('mcp/connect', { acpId: 'not-declared' })).error).toMatchObject({ code: -32602 });
    expect((await message('conn-never-minted', 'tools/list')).error).toMatchObject({ code: -32602 });
    expect((await peer.request('mcp/message', { method: 'tools/list' })).error).toMatchObject({ code: -32602 });
    expect(one.calls.length + two.calls.length).toBe(0);
  });

  it('disconnect: {} and the connection is gone; unknown ids acknowledged, nothing changes', async () => {
    const keep = await connect();
    const drop = await connect();
    expect((await peer.request('mcp/disconnect', { connectionId: drop })).result).toEqual({});
    expect((await message(drop, 'ping')).error).toMatchObject({ code: -32602 });
    expect((await peer.request('mcp/disconnect', { connectionId: 'never' })).result).toEqual({});
    expect((await message(keep, 'ping')).result).toEqual({});
  });

  it('two servers on one socket each answer only their own tools', async () => {
    const a = await connect(ID_ONE);
    const b = await connect(ID_TWO);
    expect(
      ((await message(b, 'tools/list')).result as { tools: Array<{ name: string }> }).tools.map((t) => t.name),
    ).toEqual(['fossil.echo', 'fossil.slow', 'fossil.list_my_tickets']);
    expect((await message(b, 'tools/call', { name: 'fossil.echo', arguments: { text: 'x' } })).result).toMatchObject({
      content: [{ text: 'fossil says x' }],
    });
    expect((await message(a, 'tools/call', { name: 'fossil.list_my_tickets', arguments: {} })).result).toMatchObject({
      isError: true,
    });
    expect(two.calls).toEqual([{ tool: 'echo', args: { text: 'x' } }]);
    expect(one.calls).toEqual([]);
  });

  it('list_changed goes to every open connection of that server, and only those', async () => {
    const first = await connect(ID_ONE);
    const second = await connect(ID_ONE);
    const closed = await connect(ID_ONE);
    await peer.request('mcp/disconnect', { connectionId: closed });
    await connect(ID_TWO);
    const before = peer.inbound.length;
    await client.tunnel.announceListChanged(ID_ONE);
    const isChange = (f: Frame) =>
      f.method === 'mcp/message' && (f.params as Frame)?.method === 'notifications/tools/list_changed';
    await until(() => peer.inbound.slice(before).filter(isChange).length === 2);
    const targets = peer.inbound
      .slice(before)
      .filter(isChange)
      .map((f) => (f.params as Frame).connectionId);
    expect(targets.sort()).toEqual([first, second].sort());
    expect(
      peer.inbound
        .slice(before)
        .filter(isChange)
        .every((f) => f.id === undefined),
    ).toBe(true);
  });
});

describe('the OpenAB tunnel through the project broker', () => {
  let broker: RunningBroker;
  let server: FakeToolServer;
  let client: ReturnType<typeof panelClient>;

  beforeEach(async () => {
    broker = await startBroker({ token: 'conformance' });
    server = new FakeToolServer('tabwright');
    client = panelClient({ url: broker.url, token: 'conformance', dialect: 'a', servers: [{ acpId: ID_ONE, server }] });
    client.connection.enable();
    await until(() => client.recorded.sessions.length === 1);
  });
  afterEach(async () => {
    client.connection.disable();
    await broker.close();
  });

  it('lists and calls the panel tools over the session socket, errors included', async () => {
    const agent = broker.sessions.get(client.sessionId!)!.client!;
    const { connectionId } = (await agent.request('mcp/connect', { acpId: ID_ONE })) as { connectionId: string };
    const list = (await agent.request('mcp/message', { connectionId, method: 'tools/list' })) as { tools: unknown[] };
    expect(list.tools).toHaveLength(2);
    expect(
      await agent.request('mcp/message', {
        connectionId,
        method: 'tools/call',
        params: { name: 'tabwright.echo', arguments: { text: 'b' } },
      }),
    ).toEqual({
      content: [{ type: 'text', text: 'tabwright says b' }],
    });
    await expect(agent.request('mcp/message', { connectionId, method: 'nope' })).rejects.toMatchObject({
      code: -32601,
    });
    await expect(agent.request('mcp/connect', { acpId: 'x' })).rejects.toMatchObject({ code: -32602 });
  });
});
