/**
 * "Disconnect all": once engaged, no tool call runs and every agent is disconnected until the
 * user reconnects one explicitly.
 */
export class KillSwitch {
  #engaged = false;
  readonly #listeners = new Set<(engaged: boolean) => void>();

  get engaged(): boolean {
    return this.#engaged;
  }

  engage(): void {
    this.#set(true);
  }

  release(): void {
    this.#set(false);
  }

  onChange(listener: (engaged: boolean) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #set(engaged: boolean): void {
    if (this.#engaged === engaged) return;
    this.#engaged = engaged;
    for (const listener of this.#listeners) listener(engaged);
  }
}
