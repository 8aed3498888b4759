import { describe, expect, it } from 'vitest';
import { defaultSettings, SETTINGS_VERSION, type Settings } from './settings';
import { SettingsStore } from './settings-store';
import { MemoryArea } from './stores';

/** A storage area whose writes finish only when the test lets them. */
class GatedArea extends MemoryArea {
  readonly started: Settings[] = [];
  readonly #release: Array<(error?: Error) => void> = [];
  inFlight = 0;
  maxInFlight = 0;
  override async set(items: Record<string, unknown>) {
    this.started.push(items.settings as Settings);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const error = await new Promise<Error | undefined>((resolve) => this.#release.push(resolve));
    this.inFlight--;
    if (error) throw error;
    await super.set(items);
  }
  finish(error?: Error) {
    this.#release.shift()!(error);
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('the settings store', () => {
  it('opens with defaults when nothing is stored, and reports what it could not read', async () => {
    const { store, problem } = await SettingsStore.open(new MemoryArea());
    expect(store.get()).toEqual(defaultSettings());
    expect(problem).toBeUndefined();

    const area = new MemoryArea();
    area.data.set('settings', 'garbage');
    const broken = await SettingsStore.open(area);
    expect(broken.problem).toMatch(/not an object/);
    expect(area.data.get('settings')).toBe('garbage');
  });

  it('stores a migrated older shape back', async () => {
    const area = new MemoryArea();
    area.data.set('settings', { version: 3, actMode: true });
    const { store } = await SettingsStore.open(area);
    expect(store.get().actMode).toBe(true);
    expect((area.data.get('settings') as Settings).version).toBe(SETTINGS_VERSION);
  });

  it('writes one change at a time, in order, ending with the latest value', async () => {
    const area = new GatedArea();
    const { store } = await SettingsStore.open(area);
    const first = store.update((s) => ({ ...s, actMode: true }));
    const second = store.update((s) => ({ ...s, screenshots: true }));
    await tick();
    expect(area.started).toHaveLength(1);
    area.finish();
    await first;
    await tick();
    expect(area.started).toHaveLength(2);
    area.finish();
    await second;
    expect(area.maxInFlight).toBe(1);
    expect(area.data.get('settings')).toMatchObject({ actMode: true, screenshots: true });
  });

  it('applies changes made together to each other, so none is lost', async () => {
    const area = new MemoryArea();
    const { store } = await SettingsStore.open(area);
    await Promise.all([
      store.update((s) => ({ ...s, allowedSites: [...s.allowedSites, 'https://a.example'] })),
      store.update((s) => ({ ...s, allowedSites: [...s.allowedSites, 'https://b.example'] })),
      store.update((s) => ({ ...s, actMode: true })),
    ]);
    expect(store.get().allowedSites).toEqual(['https://a.example', 'https://b.example']);
    expect(area.data.get('settings')).toMatchObject({
      actMode: true,
      allowedSites: ['https://a.example', 'https://b.example'],
    });
  });

  it('tells subscribers about each change at once, until they unsubscribe', async () => {
    const { store } = await SettingsStore.open(new MemoryArea());
    const heard: Array<[boolean, boolean]> = [];
    const stop = store.subscribe((next, previous) => heard.push([previous.actMode, next.actMode]));
    const written = store.update((s) => ({ ...s, actMode: true }));
    expect(heard).toEqual([[false, true]]);
    await written;
    await store.update((s) => s);
    expect(heard).toHaveLength(1);
    stop();
    await store.update((s) => ({ ...s, actMode: false }));
    expect(heard).toHaveLength(1);
  });

  it('reports a failed write to its caller and keeps the change for the next write', async () => {
    const area = new GatedArea();
    const { store } = await SettingsStore.open(area);
    const failed = store.update((s) => ({ ...s, actMode: true }));
    const next = store.update((s) => ({ ...s, screenshots: true }));
    await tick();
    area.finish(new Error('quota exceeded'));
    await expect(failed).rejects.toThrow('quota exceeded');
    await tick();
    area.finish();
    await next;
    expect(store.get()).toMatchObject({ actMode: true, screenshots: true });
    expect(area.data.get('settings')).toMatchObject({ actMode: true, screenshots: true });
  });
});
