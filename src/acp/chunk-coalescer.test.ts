import { describe, expect, it } from 'vitest';
import { CHUNK_HOLD_MS, coalesceTextChunks } from './chunk-coalescer';
import type { Clock } from './clock';
import { FakeClock, flushMicrotasks } from './fake-clock';
import { plainTextChunk } from './text-chunk';

type Message = Record<string, unknown>;

function rig<C extends Clock = FakeClock>(clock: C = new FakeClock() as unknown as C) {
  let source!: ReadableStreamDefaultController<Message>;
  const readable = new ReadableStream<Message>({ start: (c) => void (source = c) });
  const out: Message[] = [];
  const ended: { error?: unknown; done?: boolean } = {};
  const reader = coalesceTextChunks(readable, clock).getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return void (ended.done = true);
        out.push(value);
      }
    } catch (error) {
      ended.error = error;
    }
  })();
  const send = async (...messages: Message[]) => {
    for (const message of messages) source.enqueue(message);
    // A pipe moves each message through a few promise turns.
    await flushMicrotasks(100);
  };
  return { clock, out, ended, send, end: () => source.close(), fail: (error: Error) => source.error(error), reader };
}

const text = (t: string, update: Record<string, unknown> = {}, sessionId = 's1'): Message => ({
  jsonrpc: '2.0',
  method: 'session/update',
  params: {
    sessionId,
    update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t }, ...update },
  },
});
const textOf = (message: Message) => (message.params as { update: { content: { text: string } } }).update.content.text;
const response = { jsonrpc: '2.0', id: 1, result: { stopReason: 'end_turn' } };

describe('text chunk coalescing', () => {
  it('merges a burst of text chunks into one, after the hold', async () => {
    const r = rig();
    await r.send(text('Hel'), text('lo, '), text('world'));
    expect(r.out).toEqual([]);
    await r.clock.advance(CHUNK_HOLD_MS);
    expect(r.out).toEqual([text('Hello, world')]);
    expect(plainTextChunk(r.out[0]!.params)).toBeDefined();
  });

  it('hands a run on when a chunk comes after the hold, even while timers are held up', async () => {
    // A socket flood: time passes, but the hold's timer waits behind the messages.
    let now = 0;
    const starved: Clock = { now: () => now, setTimeout: () => 0, clearTimeout: () => undefined };
    const r = rig(starved);
    await r.send(text('a'), text('b'));
    now = CHUNK_HOLD_MS - 1;
    await r.send(text('c'));
    expect(r.out).toEqual([]);
    now = CHUNK_HOLD_MS;
    await r.send(text('d'));
    expect(r.out.map(textOf)).toEqual(['abcd']);
    await r.send(text('e'));
    now += CHUNK_HOLD_MS;
    await r.send(text('f'));
    expect(r.out.map(textOf)).toEqual(['abcd', 'ef']);
  });

  it('hands a lone chunk on unchanged', async () => {
    const r = rig();
    const lone = text('alone');
    await r.send(lone);
    await r.clock.advance(CHUNK_HOLD_MS);
    expect(r.out).toHaveLength(1);
    expect(r.out[0]).toBe(lone);
  });

  it('does not merge across sessions, kinds or messages', async () => {
    const r = rig();
    await r.send(
      text('a'),
      text('b', {}, 's2'),
      text('c', { sessionUpdate: 'agent_thought_chunk' }, 's2'),
      text('d', { messageId: 'm1' }, 's2'),
      text('e', { messageId: 'm1' }, 's2'),
      text('f', { messageId: 'm2' }, 's2'),
    );
    await r.clock.advance(CHUNK_HOLD_MS);
    expect(r.out.map(textOf)).toEqual(['a', 'b', 'c', 'de', 'f']);
    expect(r.out[3]).toEqual(text('de', { messageId: 'm1' }, 's2'));
  });

  it('hands the waiting text on before anything else', async () => {
    const r = rig();
    const request = { jsonrpc: '2.0', id: 7, method: 'session/request_permission', params: {} };
    await r.send(text('last '), text('words'), response, text('x'), request, text('y'));
    expect(r.out.map((m) => m.id ?? textOf(m))).toEqual(['last words', 1, 'x', 7]);
    await r.clock.advance(CHUNK_HOLD_MS);
    expect(r.out.map((m) => m.id ?? textOf(m))).toEqual(['last words', 1, 'x', 7, 'y']);
    expect(r.clock.pending).toBe(0);
  });

  it('hands everything else on at once when no text waits', async () => {
    const r = rig();
    const other = {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's1', update: { sessionUpdate: 'plan', entries: [] } },
    };
    await r.send(response, other);
    expect(r.out).toEqual([response, other]);
  });

  it('passes malformed and decorated chunks through untouched, never merged', async () => {
    const r = rig();
    const annotated = text('b');
    (annotated.params as { update: { content: object } }).update.content = {
      type: 'text',
      text: 'b',
      annotations: null,
    };
    const broken = {
      jsonrpc: '2.0',
      method: 'session/update',
      params: { sessionId: 's1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 5 } } },
    };
    await r.send(text('a'), annotated, broken, text('c'));
    await r.clock.advance(CHUNK_HOLD_MS);
    expect(r.out).toEqual([text('a'), annotated, broken, text('c')]);
  });

  it('does not take a request named session/update for a notification', async () => {
    const r = rig();
    const asRequest = { ...text('a'), id: 3 };
    await r.send(asRequest, text('b'));
    expect(r.out).toEqual([asRequest]);
  });

  it('hands on what waits when the stream ends', async () => {
    const r = rig();
    await r.send(text('a'), text('b'), response, text('c'));
    r.end();
    await flushMicrotasks(100);
    expect(r.out).toEqual([text('ab'), response, text('c')]);
    expect(r.ended.done).toBe(true);
    expect(r.clock.pending).toBe(0);
  });

  it('hands on the waiting text before the error of a socket that failed', async () => {
    const r = rig();
    await r.send(text('half '), text('a reply'));
    const dropped = new Error('socket dropped');
    r.fail(dropped);
    await flushMicrotasks(100);
    expect(r.out).toEqual([text('half a reply')]);
    expect(r.ended.error).toBe(dropped);
    expect(r.clock.pending).toBe(0);
  });

  it('drops nothing it cannot hand on after the reader left', async () => {
    const r = rig();
    await r.send(text('a'));
    await r.reader.cancel();
    await expect(r.clock.advance(CHUNK_HOLD_MS)).resolves.toBeUndefined();
  });
});
