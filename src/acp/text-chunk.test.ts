import { describe, expect, it } from 'vitest';
// The SDK's own schema, which its package does not export by name: what the panel's reading must agree with.
import { zSessionNotification } from '../../node_modules/@agentclientprotocol/sdk/dist/v1/unstable/schema/zod.gen.js';
import { plainTextChunk } from './text-chunk';

const chunk = (update: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  sessionId: 'session-1',
  update,
  ...extra,
});

describe('plain text chunks', () => {
  it('knows a plain text chunk, which the schema gives back unchanged', () => {
    const plain = [
      chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } }),
      chunk({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: '' } }),
      chunk({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text: 'hi' } }),
      chunk({ sessionUpdate: 'agent_message_chunk', messageId: 'm-1', content: { type: 'text', text: '# A' } }),
    ];
    for (const params of plain) {
      expect(plainTextChunk(params)).toBe(params);
      expect(zSessionNotification.parse(params)).toEqual(params);
    }
  });

  it('does not take a shape the schema would change or read otherwise', () => {
    const others = [
      chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } }, { _meta: { k: 1 } }),
      chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } }, { stray: true }),
      chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x', annotations: null } }),
      chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x', stray: 1 } }),
      chunk({ sessionUpdate: 'agent_message_chunk', messageId: null, content: { type: 'text', text: 'x' } }),
      chunk({ sessionUpdate: 'agent_message_chunk', messageId: 7, content: { type: 'text', text: 'x' } }),
      chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } }),
      chunk({ sessionUpdate: 'tool_call', toolCallId: 't-1', title: 'Read' }),
      chunk({ sessionUpdate: 'plan', entries: [] }),
    ];
    for (const params of others) expect(plainTextChunk(params)).toBeUndefined();
    // Some of them the schema accepts but changes: a stray key is dropped.
    expect(zSessionNotification.parse(others[1])).not.toEqual(others[1]);
    expect(zSessionNotification.parse(others[3])).not.toEqual(others[3]);
  });

  it('refuses what the schema refuses', () => {
    const bad: unknown[] = [
      null,
      'text',
      [],
      { update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } },
      chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 3 } }),
      chunk({ sessionUpdate: 'agent_message_chunk', content: { type: 'text' } }),
      chunk({ sessionUpdate: 'agent_message_chunk' }),
      chunk({ sessionUpdate: 'no_such_update', content: { type: 'text', text: 'x' } }),
      { sessionId: 5, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } },
    ];
    for (const params of bad) {
      expect(plainTextChunk(params)).toBeUndefined();
      expect(() => zSessionNotification.parse(params)).toThrow();
    }
  });

  it('does not take a key it does not know for one it does', () => {
    const sneaky = JSON.parse(
      '{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x","__proto__":{"polluted":1}}}}',
    ) as unknown;
    expect(plainTextChunk(sneaky)).toBeUndefined();
  });
});
