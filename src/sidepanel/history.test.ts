import { describe, expect, it } from 'vitest';
import { MemoryArea } from '../shared/stores';
import { ChatModel } from './chat-model';
import type { ChatItem } from './chat-types';
import { t } from './i18n';
import { boundHistory, DEFAULT_HISTORY_LIMITS, HISTORY_VERSION, HistoryStore, recordHistory } from './history';

const user = (id: string, text: string, pending: string[] = []): ChatItem => ({
  kind: 'user',
  id,
  at: 1,
  text,
  to: ['a1'],
  pending,
});

describe('HistoryStore', () => {
  it('round-trips a transcript and the draft per window', async () => {
    const area = new MemoryArea();
    const chat = new ChatModel(() => 5, 'w');
    chat.addUser('hello', ['a1']);
    chat.markSent('a1', [chat.items[0]!.id]);
    chat.applyUpdate('a1', 'Demo', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '**hi**' } });
    chat.endTurn('a1', { stopReason: 'end_turn' });
    chat.addUser('typed while offline', ['a1']);
    await new HistoryStore(area, 7).save(chat.items, 'half a thought');

    const loaded = await new HistoryStore(area, 7).load();
    expect(loaded.problem).toBeUndefined();
    expect(loaded.draft).toBe('half a thought');
    expect(loaded.items).toEqual(JSON.parse(JSON.stringify(chat.items)));
    expect(await new HistoryStore(area, 8).load()).toEqual({ items: [], draft: '' });
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
    const items = Array.from({ length: 10 }, (_, i) => user(`u${i}`, `message ${i}`, i === 0 ? ['a1'] : []));
    const kept = boundHistory(items, { ...DEFAULT_HISTORY_LIMITS, maxItems: 3 });
    expect(kept.map((i) => i.id)).toEqual(['u0', 'u7', 'u8', 'u9']);
    // Each of these is estimated at 200 characters of overhead plus its text.
    const bySize = boundHistory(items, { ...DEFAULT_HISTORY_LIMITS, maxChars: 700 });
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

  it('saves once, in a later task, for changes that each asked for a save at once', async () => {
    const area = new MemoryArea();
    const store = new HistoryStore(area, 5);
    const chat = new ChatModel(() => 1, 'r');
    const recorder = recordHistory(chat, store, () => '', 20);
    let writes = 0;
    const set = area.set.bind(area);
    area.set = (items) => (writes++, set(items));
    chat.addUser('first', ['a1']);
    chat.addUser('second', ['a1']);
    chat.applyUpdate('a1', 'Demo', { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'reply' } });
    chat.endTurn('a1', { stopReason: 'end_turn' });
    expect(writes).toBe(0);
    await recorder.flush();
    expect(writes).toBe(1);
    expect((await store.load()).items).toHaveLength(3);
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
