import type { AnyMessage } from '@agentclientprotocol/sdk/unstable';
import { describe, expect, it } from 'vitest';
import { updateGuard } from './update-guard';

const notification = (update: Record<string, unknown>): AnyMessage =>
  ({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 's1', update } }) as AnyMessage;
const textOf = (message: AnyMessage | undefined) =>
  ((message as { params?: { update?: { content?: { text?: string } } } } | undefined)?.params?.update?.content?.text ??
    '') as string;

describe('updates ACP does not allow', () => {
  it('pass the ones the SDK takes unchanged, nulls in fields that may be left out among them', async () => {
    const guard = updateGuard({ mask: (text) => text, log: () => undefined });
    const fine = notification({ sessionUpdate: 'session_info_update', title: null });
    expect(await guard(fine)).toBe(fine);
    const request = { jsonrpc: '2.0', id: 1, method: 'session/update', params: {} } as AnyMessage;
    expect(await guard(request)).toBe(request);
  });

  it('put a masked note in the chat in place of one the SDK would drop, once per kind and reason, and log each', async () => {
    const logs: string[] = [];
    const guard = updateGuard({ mask: (text) => text.replaceAll('sk-secret-value', '***'), log: (l) => logs.push(l) });
    const usage = notification({ sessionUpdate: 'usage_update', used: null, size: 200_000 });
    const note = await guard(usage);
    expect(note).toMatchObject({ method: 'session/update', params: { sessionId: 's1' } });
    expect(textOf(note)).toMatch(/The agent sent a usage_update update that ACP does not allow.*used is null/);
    expect(await guard(usage)).toBeUndefined();
    const odd = await guard(notification({ sessionUpdate: 'sk-secret-value', content: 1 }));
    expect(textOf(odd)).toContain('a *** update');
    expect(textOf(odd)).not.toContain('sk-secret-value');
    expect(logs).toHaveLength(3);
    expect(logs[0]).toMatch(/^dropped a usage_update update from the agent that ACP does not allow \(used is null\)$/);
  });
});
