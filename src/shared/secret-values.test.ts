import { describe, expect, it } from 'vitest';
import { SecretValueStore } from './secret-values';
import { MemoryArea } from './stores';

describe('SecretValueStore', () => {
  it('keeps values in the local area and gives back names only for display', async () => {
    const area = new MemoryArea();
    const store = new SecretValueStore(area);
    await store.load();
    expect(await store.add('Account', 'DE89 3704 0044')).toBeUndefined();
    expect(store.names).toEqual(['Account']);
    const reopened = new SecretValueStore(area);
    await reopened.load();
    expect(reopened.values).toEqual(['DE89 3704 0044']);
    await reopened.remove('Account');
    expect(reopened.values).toEqual([]);
  });

  it('refuses unnamed, short and duplicate secrets', async () => {
    const store = new SecretValueStore(new MemoryArea());
    expect(await store.add(' ', 'long enough')).toMatch(/name/);
    expect(await store.add('PIN', '12')).toMatch(/at least 4/);
    await store.add('A', 'value-1');
    expect(await store.add('A', 'value-2')).toMatch(/already/);
  });

  it('survives a corrupted stored value', async () => {
    const area = new MemoryArea();
    await area.set({ secretValues: 'garbage' });
    const store = new SecretValueStore(area);
    await store.load();
    expect(store.values).toEqual([]);
  });
});
