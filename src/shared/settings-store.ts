/**
 * The panel's settings, held in one place. Every change goes through `update`, which applies it to
 * the current value at once (so two changes made together both land) and writes the result to
 * storage in order, one write at a time, so the stored value is always the latest. Listeners hear
 * each change as it is applied. Pure: the storage area is passed in.
 */
import { loadSettings, type LoadedSettings, type Settings } from './settings';
import type { StorageArea } from './stores';

export const SETTINGS_KEY = 'settings';

export type SettingsListener = (next: Settings, previous: Settings) => void;

export class SettingsStore {
  #value: Settings;
  #writes: Promise<void> = Promise.resolve();
  readonly #listeners = new Set<SettingsListener>();

  private constructor(
    private readonly area: StorageArea,
    initial: Settings,
  ) {
    this.#value = initial;
  }

  /** Reads the stored settings (migrating an older shape and storing it back); `problem` says what could not be read. */
  static async open(area: StorageArea): Promise<{ store: SettingsStore; problem?: string; migratedFrom?: number }> {
    const { [SETTINGS_KEY]: stored } = await area.get([SETTINGS_KEY]);
    const loaded: LoadedSettings = loadSettings(stored);
    const store = new SettingsStore(area, loaded.settings);
    if (loaded.migratedFrom !== undefined) await store.#write(loaded.settings);
    return {
      store,
      ...(loaded.problem ? { problem: loaded.problem } : {}),
      ...(loaded.migratedFrom !== undefined ? { migratedFrom: loaded.migratedFrom } : {}),
    };
  }

  get(): Settings {
    return this.#value;
  }

  /**
   * Applies `change` to the current settings and stores the result. Resolves once that value is
   * written; rejects if the write fails (the change stays applied, and the next write carries it).
   */
  update(change: (current: Settings) => Settings): Promise<void> {
    const previous = this.#value;
    const next = change(previous);
    if (next === previous) return this.#writes;
    this.#value = next;
    for (const listener of this.#listeners) listener(next, previous);
    return this.#write(next);
  }

  subscribe(listener: SettingsListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #write(value: Settings): Promise<void> {
    const written = this.#writes.then(() => this.area.set({ [SETTINGS_KEY]: value }));
    // A failed write is reported to its caller; the queue goes on with the next one.
    this.#writes = written.catch(() => undefined);
    return written;
  }
}
