/**
 * The managed policy as the panel last read it, and the settings it makes effective. The gates read
 * `effective()` on every call, so a policy change applies to the next call; the result is kept
 * until the settings or the policy change, so the blocklist built from it is not rebuilt per call.
 */
import { effectiveSettings, NO_POLICY, type ReadPolicy } from './policy';
import type { Settings } from './settings';

export class PolicyHolder {
  #read: ReadPolicy = NO_POLICY;
  readonly #listeners = new Set<(read: ReadPolicy) => void>();
  #cached: { settings: Settings; read: ReadPolicy; effective: Settings } | undefined;

  constructor(read: ReadPolicy = NO_POLICY) {
    this.#read = read;
  }

  get read(): ReadPolicy {
    return this.#read;
  }

  get policy(): ReadPolicy['policy'] {
    return this.#read.policy;
  }

  set(read: ReadPolicy): void {
    this.#read = read;
    for (const listener of this.#listeners) listener(read);
  }

  subscribe(listener: (read: ReadPolicy) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  effective(settings: Settings): Settings {
    const cached = this.#cached;
    if (cached && cached.settings === settings && cached.read === this.#read) return cached.effective;
    const effective = effectiveSettings(settings, this.#read.policy);
    this.#cached = { settings, read: this.#read, effective };
    return effective;
  }
}
