/**
 * Values the user marks as secret (an account number, a recovery code): masked wherever they
 * appear in tool arguments, confirmation cards, the audit log and tool results. They are secrets
 * themselves, so they live in the local area only, never in the (syncable) settings, and the panel
 * never shows them again after they are saved.
 */
import { z } from 'zod';
import type { StorageArea } from './stores';

const KEY = 'secretValues';

export const SecretValue = z.object({ name: z.string().min(1).max(64), value: z.string().min(1) });
export type SecretValue = z.infer<typeof SecretValue>;

/** Shorter values would mask ordinary words in every result. */
export const MIN_SECRET_LENGTH = 4;

export class SecretValueStore {
  #values: SecretValue[] = [];

  constructor(private readonly localArea: StorageArea) {}

  async load(): Promise<void> {
    const { [KEY]: stored } = await this.localArea.get([KEY]);
    const parsed = z.array(SecretValue).safeParse(stored ?? []);
    this.#values = parsed.success ? parsed.data : [];
  }

  /** Names only: the values are never shown again. */
  get names(): string[] {
    return this.#values.map((secret) => secret.name);
  }

  get values(): readonly string[] {
    return this.#values.map((secret) => secret.value);
  }

  /** Returns a problem to show, or undefined when saved. */
  async add(name: string, value: string): Promise<string | undefined> {
    const trimmedName = name.trim();
    if (!trimmedName) return 'Give the secret a name, so you can recognise it later.';
    if (value.length < MIN_SECRET_LENGTH) return `A secret needs at least ${MIN_SECRET_LENGTH} characters.`;
    if (this.#values.some((secret) => secret.name === trimmedName)) return 'Another secret already has this name.';
    this.#values = [...this.#values, { name: trimmedName, value }];
    await this.localArea.set({ [KEY]: this.#values });
    return undefined;
  }

  async remove(name: string): Promise<void> {
    this.#values = this.#values.filter((secret) => secret.name !== name);
    await this.localArea.set({ [KEY]: this.#values });
  }
}
