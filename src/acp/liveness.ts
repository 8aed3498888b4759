/**
 * Liveness of one agent socket. Any inbound frame proves life. When the socket has been silent
 * for a whole interval, a JSON-RPC probe goes out; any answer (result or error) proves life. One
 * missed probe only marks the agent unresponsive; a second consecutive miss reconnects, but only
 * when no turn is running — a turn that is streaming is never torn down.
 */
import type { Clock } from './clock';

export interface LivenessOptions {
  clock: Clock;
  intervalMs: number;
  /** How long a probe may take before it counts as missed. */
  timeoutMs: number;
  /** Sends the probe; resolves on any answer, rejects when the socket failed. */
  probe(signal: AbortSignal): Promise<void>;
  turnRunning(): boolean;
  onResponsive(responsive: boolean): void;
  onDead(): void;
}

export class LivenessMonitor {
  #lastInbound: number;
  #misses = 0;
  #timer: unknown;
  #probing: AbortController | undefined;
  #stopped = false;

  constructor(private readonly options: LivenessOptions) {
    this.#lastInbound = options.clock.now();
  }

  start(): void {
    this.#stopped = false;
    this.#lastInbound = this.options.clock.now();
    this.#schedule(this.options.intervalMs);
  }

  stop(): void {
    this.#stopped = true;
    this.options.clock.clearTimeout(this.#timer);
    this.#probing?.abort();
    this.#probing = undefined;
  }

  get misses(): number {
    return this.#misses;
  }

  noteInbound(): void {
    this.#lastInbound = this.options.clock.now();
    if (this.#misses > 0) {
      this.#misses = 0;
      this.options.onResponsive(true);
    }
  }

  #schedule(ms: number): void {
    if (this.#stopped) return;
    this.options.clock.clearTimeout(this.#timer);
    this.#timer = this.options.clock.setTimeout(() => void this.#tick(), Math.max(0, ms));
  }

  async #tick(): Promise<void> {
    if (this.#stopped) return;
    const silentFor = this.options.clock.now() - this.#lastInbound;
    if (silentFor < this.options.intervalMs) {
      this.#schedule(this.options.intervalMs - silentFor);
      return;
    }
    const sentAt = this.options.clock.now();
    // Any frame that arrived while the probe was out proves life as well as its answer would.
    const answered = (await this.#probeOnce()) || this.#lastInbound > sentAt;
    if (this.#stopped) return;
    if (answered) {
      this.noteInbound();
    } else {
      this.#misses++;
      if (this.#misses === 1) this.options.onResponsive(false);
      if (this.#misses >= 2 && !this.options.turnRunning()) {
        this.stop();
        this.options.onDead();
        return;
      }
    }
    this.#schedule(this.options.intervalMs);
  }

  #probeOnce(): Promise<boolean> {
    const controller = new AbortController();
    this.#probing = controller;
    return new Promise<boolean>((resolve) => {
      const timer = this.options.clock.setTimeout(() => {
        controller.abort();
        resolve(false);
      }, this.options.timeoutMs);
      this.options.probe(controller.signal).then(
        () => {
          this.options.clock.clearTimeout(timer);
          resolve(!controller.signal.aborted);
        },
        () => {
          this.options.clock.clearTimeout(timer);
          resolve(false);
        },
      );
    });
  }
}
