/**
 * A connector turned on mid-session must become reachable through a gateway that never acts on
 * `tools/list_changed` (OpenAB finds a changed set only by discovering it again): the panel
 * declares the whole set again with `session/resume`, on the same socket.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startRawPeer, type RawPeer } from '../peers/raw-acp-peer';
import { FakeToolServer } from './fake-tools';
import { panelClient, until } from './panel-client';

const BROWSER_ID = '7d3f2a10-0000-4000-8000-0000000000c1';
const CONNECTOR_ID = '7d3f2a10-0000-4000-8000-0000000000c2';

let peer: RawPeer | undefined;
let client: ReturnType<typeof panelClient> | undefined;

afterEach(async () => {
  client?.connection.disable();
  await peer?.close();
});

describe('a connector turned on mid-session, with a OpenAB-tunnel gateway that ignores list_changed', () => {
  it('is re-declared on session/resume and answers its tool calls', async () => {
    peer = await startRawPeer({ resume: true });
    const servers = [{ acpId: BROWSER_ID, server: new FakeToolServer('tabwright') }];
    client = panelClient({ url: peer.url, dialect: 'a', servers });
    client.connection.enable();
    await until(() => client!.connection.status === 'connected');
    expect(peer.declared.map((d) => d.name)).toEqual(['tabwright']);

    const fossil = new FakeToolServer('fossil', ['list_my_tickets']);
    servers.push({ acpId: CONNECTOR_ID, server: fossil });
    client.connection.redeclare();
    const resume = await peer.waitFor((frame) => frame.method === 'session/resume');
    expect(resume.params).toMatchObject({ sessionId: 'raw-session' });
    expect(peer.declared.map((d) => d.name)).toEqual(['tabwright', 'fossil']);
    expect(client.connection.status).toBe('connected');
    expect(client.recorded.notices).toEqual([]);
    expect(peer.inbound.filter((frame) => frame.method === 'initialize')).toHaveLength(1);

    const connected = await peer.request('mcp/connect', { acpId: CONNECTOR_ID });
    const { connectionId } = connected.result as { connectionId: string };
    await peer.request('mcp/message', {
      connectionId,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'gateway', version: '1' } },
    });
    peer.notify('mcp/message', { connectionId, method: 'notifications/initialized' });
    const listed = await peer.request('mcp/message', { connectionId, method: 'tools/list' });
    expect((listed.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name)).toContain(
      'fossil.list_my_tickets',
    );
    const called = await peer.request('mcp/message', {
      connectionId,
      method: 'tools/call',
      params: { name: 'fossil.list_my_tickets', arguments: {} },
    });
    expect(called.result).toMatchObject({ content: [{ type: 'text' }] });
    expect(fossil.calls.map((call) => call.tool)).toEqual(['list_my_tickets']);
  });

  it('keeps turns and re-declarations in order on one socket', async () => {
    peer = await startRawPeer({ resume: true });
    const servers = [{ acpId: BROWSER_ID, server: new FakeToolServer('tabwright') }];
    client = panelClient({ url: peer.url, dialect: 'a', servers });
    client.connection.enable();
    await until(() => client!.connection.status === 'connected');
    client.connection.send('first');
    await until(() => client!.recorded.turns.length === 1);
    servers.push({ acpId: CONNECTOR_ID, server: new FakeToolServer('fossil', ['list_my_tickets']) });
    client.connection.redeclare();
    client.connection.send('second');
    await until(() => client!.recorded.turns.length === 2);
    const methods = peer.inbound.flatMap((frame) =>
      frame.method === 'session/resume' || frame.method === 'session/prompt' ? [frame.method] : [],
    );
    expect(methods).toEqual(['session/prompt', 'session/resume', 'session/prompt']);
  });

  it('reconnects to re-declare when the gateway cannot resume', async () => {
    peer = await startRawPeer();
    const servers = [{ acpId: BROWSER_ID, server: new FakeToolServer('tabwright') }];
    client = panelClient({ url: peer.url, dialect: 'a', servers });
    client.connection.enable();
    await until(() => client!.connection.status === 'connected');
    servers.push({ acpId: CONNECTOR_ID, server: new FakeToolServer('fossil', ['list_my_tickets']) });
    client.connection.redeclare();
    await until(() => peer!.inbound.some((frame) => frame.method === 'session/load'), 10_000, 'the reconnect');
    expect(peer.declared.map((d) => d.name)).toEqual(['tabwright', 'fossil']);
    expect(client.recorded.notices.join('\n')).toContain('the tool servers offered to the agent changed');
  });
});
