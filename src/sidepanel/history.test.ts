import { describe, expect, it } from 'vitest';
import { MemoryArea } from '../shared/stores';
import { ChatModel } from './chat-model';
import type { ChatItem } from './chat-types';
import { t } from './i18n';
import {
  boundHistory,
  DEFAULT_HISTORY_LIMITS,
  HISTORY_VERSION,
  HistoryStore,
  recordHistory,
  withRestoredQueue,
} from './history';

const user = (id: string, text: string): ChatItem => ({ kind: 'user', id, at: 1, text, to: ['a1'] });

describe('HistoryStore', () => {
  it('round-trips a transcript and the draft per window', async () => {
    const area = new MemoryArea();
    const chat = new ChatModel(() => 5, 'w');
    chat.addUser('hello', ['a1']);
    chat.applyUpdate('a1', 'Demo', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '**hi**' } });
    chat.endTurn('a1', { stopReason: 'end_turn' });
    const offline = chat.addUser('typed while offline', ['a1']);
    chat.setQueue('a1', [offline.id]);
    await new HistoryStore(area, 7).save(chat.items, 'half a thought', chat.queue());

    const loaded = await new HistoryStore(area, 7).load();
    expect(loaded.problem).toBeUndefined();
    expect(loaded.draft).toBe('half a thought');
    expect(loaded.items).toEqual(JSON.parse(JSON.stringify(chat.items)));
    expect(loaded.queue).toEqual({ a1: [offline.id] });
    expect(await new HistoryStore(area, 8).load()).toEqual({ items: [], draft: '', queue: {} });
  });

  it('says why a stored history was not loaded, and drops only unreadable items', async () => {
    const area = new MemoryArea();
    await area.set({ 'history:1': { version: HISTORY_VERSION + 1, savedAt: 1, items: [] } });
    expect((await new HistoryStore(area, 1).load()).problem).toMatch(/newer Tabwright/);
    await area.set({ 'history:1': 'garbage' });
    expect((await new HistoryStore(area, 1).load()).problem).toMatch(/could not be read/);
    await area.set({
      'history:1': { version: HISTORY_VERSION, savedAt: 1, items: [user('u1', 'ok'), { kind: 'user', id: 3 }] },
    });
    const loaded = await new HistoryStore(area, 1).load();
    expect(loaded.items).toEqual([user('u1', 'ok')]);
    expect(loaded.problem).toMatch(/1 saved chat items could not be read/);
  });

  it("migrates a version 1 history: the pending lists on messages become each agent's queue", async () => {
    const area = new MemoryArea();
    const v1User = (id: string, to: string[], pending: string[]) => ({
      kind: 'user',
      id,
      at: 1,
      text: id,
      to,
      pending,
    });
    await area.set({
      'history:1': {
        version: 1,
        savedAt: 1,
        draft: 'unsent',
        items: [
          v1User('u1', ['a1', 'a2'], []),
          { kind: 'agent', id: 'r1', at: 2, agentId: 'a1', agentName: 'A', segments: [], done: true },
          v1User('u2', ['a1', 'a2'], ['a2']),
          v1User('u3', ['a1'], ['a1']),
          v1User('u4', ['a1', 'a2'], ['a1', 'a2']),
        ],
      },
    });
    const loaded = await new HistoryStore(area, 1).load();
    expect(loaded.problem).toBeUndefined();
    expect(loaded.draft).toBe('unsent');
    expect(loaded.queue).toEqual({ a1: ['u3', 'u4'], a2: ['u2', 'u4'] });
    expect(loaded.items.map((item) => item.id)).toEqual(['u1', 'r1', 'u2', 'u3', 'u4']);
    expect(loaded.items.some((item) => 'pending' in item)).toBe(false);

    // Saved again, it is version 2 and reads back the same.
    const store = new HistoryStore(area, 1);
    await store.save(loaded.items, loaded.draft, loaded.queue);
    expect(area.data.get('history:1')).toMatchObject({ version: HISTORY_VERSION, queue: loaded.queue });
    expect(await store.load()).toEqual(loaded);
  });

  it('drops from the stored queue only messages whose item could not be read', async () => {
    const area = new MemoryArea();
    await area.set({
      'history:1': {
        version: HISTORY_VERSION,
        savedAt: 1,
        items: [user('u1', 'ok'), { kind: 'user', id: 'u2' }],
        queue: { a1: ['u1', 'u2'], a2: ['u2'] },
      },
    });
    const loaded = await new HistoryStore(area, 1).load();
    expect(loaded.queue).toEqual({ a1: ['u1'] });
    expect(loaded.problem).toMatch(/1 saved chat items could not be read/);
  });

  it('forgets windows unseen for longer than the age limit', async () => {
    const area = new MemoryArea();
    let now = 0;
    const limits = { ...DEFAULT_HISTORY_LIMITS, maxAgeMs: 1_000 };
    await new HistoryStore(area, 1, limits, () => now).save([user('u1', 'old window')], '');
    now = 5_000;
    await new HistoryStore(area, 2, limits, () => now).save([user('u2', 'this window')], '');
    await new HistoryStore(area, 2, limits, () => now).load();
    expect(area.data.has('history:1')).toBe(false);
    expect(area.data.has('history:2')).toBe(true);
  });
});

describe('boundHistory', () => {
  it('keeps the newest items within the count and size limits, and every queued message', () => {
    const items = Array.from({ length: 10 }, (_, i) => user(`u${i}`, `message ${i}`));
    const queued = new Set(['u0']);
    const kept = boundHistory(items, { ...DEFAULT_HISTORY_LIMITS, maxItems: 3 }, queued);
    expect(kept.map((i) => i.id)).toEqual(['u0', 'u7', 'u8', 'u9']);
    // Each of these is estimated at 200 characters of overhead plus its text.
    const bySize = boundHistory(items, { ...DEFAULT_HISTORY_LIMITS, maxChars: 700 }, queued);
    expect(bySize.map((i) => i.id)).toEqual(['u0', 'u7', 'u8', 'u9']);
  });

  it('cuts very long texts and drops oversized images from the stored copy only', () => {
    const long: ChatItem = {
      kind: 'agent',
      id: 'a',
      at: 1,
      agentId: 'a1',
      agentName: 'Demo',
      done: true,
      segments: [
        { kind: 'text', id: 's1', text: 'x'.repeat(50) },
        { kind: 'media', id: 's2', media: { type: 'image', mimeType: 'image/png', data: 'A'.repeat(50) } },
      ],
    };
    const [stored] = boundHistory([long], { ...DEFAULT_HISTORY_LIMITS, maxTextChars: 10 });
    expect(stored).toMatchObject({ segments: [{ kind: 'text', text: `${'x'.repeat(10)}\n\n${t('historyCut')}` }] });
    expect((long as { segments: unknown[] }).segments).toHaveLength(2);
  });
});

describe('withRestoredQueue', () => {
  it('keeps what was restored and not given back yet ahead of what the outboxes report', () => {
    expect(withRestoredQueue({ a1: ['u1', 'u2'], a2: ['u1'] }, { a1: ['u2', 'u3'], a3: ['u4'] })).toEqual({
      a1: ['u1', 'u2', 'u3'],
      a2: ['u1'],
      a3: ['u4'],
    });
    expect(withRestoredQueue({}, { a1: ['u1'] })).toEqual({ a1: ['u1'] });
  });
});

describe('recordHistory', () => {
  it('saves at once when a message is typed and soon after streamed text', async () => {
    const area = new MemoryArea();
    const store = new HistoryStore(area, 3);
    const chat = new ChatModel(() => 1, 'r');
    const recorder = recordHistory(chat, store, () => 'draft', 20);
    chat.addUser('hi', ['a1']);
    await recorder.flush();
    expect((await store.load()).items).toHaveLength(1);
    chat.applyUpdate('a1', 'Demo', {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: 'streamed' },
    });
    await expect.poll(async () => (await store.load()).items.length).toBe(2);
    expect((await store.load()).draft).toBe('draft');
  });

  it('saves each change of an outbox queue at once, once for a message added and queued together', async () => {
    const area = new MemoryArea();
    const store = new HistoryStore(area, 5);
    const chat = new ChatModel(() => 1, 'q');
    const recorder = recordHistory(chat, store, () => '', 10_000);
    let writes = 0;
    const set = area.set.bind(area);
    area.set = (items) => (writes++, set(items));
    const message = chat.addUser('wait for me', ['a1']);
    chat.setQueue('a1', [message.id]);
    await recorder.flush();
    expect(writes).toBe(1);
    expect((await store.load()).queue).toEqual({ a1: [message.id] });
    chat.setQueue('a1', []);
    await expect.poll(async () => (await store.load()).queue).toEqual({});
  });

  it('does not write back a transcript it just restored, and saves a cleared one at once', async () => {
    const area = new MemoryArea();
    const store = new HistoryStore(area, 4);
    await store.save([user('u1', 'kept')], '');
    const chat = new ChatModel(() => 1, 'r');
    recordHistory(chat, store, () => '', 20);
    let writes = 0;
    const set = area.set.bind(area);
    area.set = (items) => (writes++, set(items));
    chat.restore((await store.load()).items);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(writes).toBe(0);
    chat.clear();
    await expect.poll(async () => (await store.load()).items.length).toBe(0);
  });
});
