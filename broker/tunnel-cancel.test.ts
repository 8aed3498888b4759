import type { AnyMessage } from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { TunnelCancelTranslator } from './tunnel-cancel';

const call = (id: number, params: Record<string, unknown>) =>
  ({ jsonrpc: '2.0', id, method: 'mcp/message', params }) as AnyMessage;
const sdkCancel = (requestId: number) =>
  ({ jsonrpc: '2.0', method: '$/cancel_request', params: { requestId } }) as AnyMessage;

describe('TunnelCancelTranslator', () => {
  it('turns the SDK cancellation of a OpenAB-tunnel call into mcp/cancel with the outer id', () => {
    const t = new TunnelCancelTranslator();
    t.outbound(call(7, { connectionId: 'c1', method: 'tools/call', params: { name: 'x' } }));
    expect(t.outbound(sdkCancel(7))).toEqual({ jsonrpc: '2.0', method: 'mcp/cancel', params: { requestId: 7 } });
  });

  it('leaves the ACP SDK binding, other requests and unknown ids alone', () => {
    const t = new TunnelCancelTranslator();
    t.outbound(call(1, { serverId: 's', requestId: 'r', method: 'tools/call' }));
    t.outbound({ jsonrpc: '2.0', id: 2, method: 'session/request_permission', params: {} } as AnyMessage);
    expect(t.outbound(sdkCancel(1))).toEqual(sdkCancel(1));
    expect(t.outbound(sdkCancel(2))).toEqual(sdkCancel(2));
    expect(t.outbound(sdkCancel(99))).toEqual(sdkCancel(99));
  });

  it('forgets a call once the panel answered it', () => {
    const t = new TunnelCancelTranslator();
    t.outbound(call(3, { connectionId: 'c1', method: 'ping' }));
    expect(t.openCalls).toBe(1);
    t.inbound({ jsonrpc: '2.0', id: 3, result: {} } as AnyMessage);
    expect(t.openCalls).toBe(0);
    expect(t.outbound(sdkCancel(3))).toEqual(sdkCancel(3));
  });

  it('does not mistake a panel request with the same id for an answer', () => {
    const t = new TunnelCancelTranslator();
    t.outbound(call(4, { connectionId: 'c1', method: 'ping' }));
    t.inbound({ jsonrpc: '2.0', id: 4, method: 'tabwright/ping' } as AnyMessage);
    expect(t.openCalls).toBe(1);
  });
});
