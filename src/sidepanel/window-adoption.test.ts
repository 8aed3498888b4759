import { describe, expect, it } from 'vitest';
import { MemoryArea, SessionIdStore } from '../shared/stores';
import { adoptClosedWindow } from './window-adoption';

function stored(entries: Record<string, unknown>) {
  const area = new MemoryArea();
  for (const [key, value] of Object.entries(entries)) area.data.set(key, value);
  return { area, sessions: new SessionIdStore(area) };
}

const conversation = (text: string) => ({ version: 1, savedAt: 0, items: [{ text }], draft: '' });

describe('a panel in a window that has no conversation of its own', () => {
  it("takes over the most recently used closed window's conversation and sessions", async () => {
    const { area, sessions } = stored({
      'history:index': { 3: 100, 7: 300, 9: 200 },
      'history:3': conversation('old'),
      'history:7': conversation('newest closed'),
      'history:9': conversation('open elsewhere'),
      'session:7:a1': 'sess-a',
      'session:7:a2': 'sess-b',
      'session:3:a1': 'sess-old',
    });
    const from = await adoptClosedWindow({
      area,
      sessions,
      windowId: 1,
      openWindowIds: new Set([1, 9]),
      agentIds: ['a1', 'a2'],
    });
    expect(from).toBe(7);
    expect(area.data.get('history:1')).toEqual(conversation('newest closed'));
    expect(area.data.has('history:7')).toBe(false);
    expect(area.data.get('history:index')).toEqual({ 1: 300, 3: 100, 9: 200 });
    expect(await sessions.get(1, 'a1')).toBe('sess-a');
    expect(await sessions.get(1, 'a2')).toBe('sess-b');
    expect(await sessions.get(7, 'a1')).toBeUndefined();
    // Other closed windows are left as they were.
    expect(area.data.get('history:3')).toEqual(conversation('old'));
    expect(await sessions.get(3, 'a1')).toBe('sess-old');
  });

  it('keeps its own conversation when it has one', async () => {
    const { area, sessions } = stored({
      'history:index': { 1: 50, 7: 300 },
      'history:1': conversation('mine'),
      'history:7': conversation('closed'),
    });
    const input = { area, sessions, windowId: 1, openWindowIds: new Set([1]), agentIds: ['a1'] };
    expect(await adoptClosedWindow(input)).toBeUndefined();
    expect(area.data.get('history:1')).toEqual(conversation('mine'));
    expect(area.data.get('history:7')).toEqual(conversation('closed'));
  });

  it('keeps its own sessions when it has some but no saved conversation yet', async () => {
    const { area, sessions } = stored({
      'history:index': { 7: 300 },
      'history:7': conversation('closed'),
      'session:1:a1': 'mine',
    });
    const input = { area, sessions, windowId: 1, openWindowIds: new Set([1]), agentIds: ['a1'] };
    expect(await adoptClosedWindow(input)).toBeUndefined();
    expect(await sessions.get(1, 'a1')).toBe('mine');
  });

  it('never takes from a window that is still open, however recent', async () => {
    const { area, sessions } = stored({
      'history:index': { 2: 900 },
      'history:2': conversation('open'),
      'session:2:a1': 'theirs',
    });
    const input = { area, sessions, windowId: 1, openWindowIds: new Set([1, 2]), agentIds: ['a1'] };
    expect(await adoptClosedWindow(input)).toBeUndefined();
    expect(area.data.get('history:2')).toEqual(conversation('open'));
    expect(await sessions.get(2, 'a1')).toBe('theirs');
    expect(area.data.has('history:1')).toBe(false);
  });

  it('starts empty when nothing was ever saved', async () => {
    const { area, sessions } = stored({});
    const input = { area, sessions, windowId: 1, openWindowIds: new Set([1]), agentIds: ['a1'] };
    expect(await adoptClosedWindow(input)).toBeUndefined();
    expect(area.data.size).toBe(0);
  });
});
