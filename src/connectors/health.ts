/**
 * Connector health: each enabled connector's `healthCheck` runs periodically (default every
 * 10 minutes) and on demand, and tool calls report what they learn (a sign-in page, a success).
 * Settings says the status in words (sidepanel/views/connector-status.ts).
 */
import { AuthExpiredError, type Connector } from './sdk';

export type HealthState = 'unknown' | 'checking' | 'healthy' | 'signed-out' | 'failing' | 'no-site' | 'not-allowed';

export interface ConnectorStatus {
  state: HealthState;
  /** Why it fails, or the sign-in refusal. */
  reason?: string;
  /** Where the user signs in, when signed out. */
  signInUrl?: string;
  checkedAt?: number;
}

export interface HealthProbe {
  /**
   * Runs the connector's check in its tab; undefined when it cannot run: `no-site` or
   * `not-allowed` (with the refusal) instead.
   */
  check(
    connector: Connector,
    signal: AbortSignal,
  ): Promise<boolean | { state: 'no-site' | 'not-allowed'; reason?: string }>;
  signInUrl(connector: Connector): string | undefined;
}

export interface HealthTimers {
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
  now(): number;
}

export const DEFAULT_HEALTH_MINUTES = 10;
const CHECK_TIMEOUT_MS = 60_000;

export class ConnectorHealth {
  readonly #statuses = new Map<string, ConnectorStatus>();
  readonly #running = new Map<string, Promise<ConnectorStatus>>();
  readonly #listeners = new Set<(id: string, status: ConnectorStatus) => void>();
  #timer: unknown;

  constructor(
    private readonly probe: HealthProbe,
    private readonly enabledConnectors: () => readonly Connector[],
    private readonly timers: HealthTimers,
  ) {}

  status(id: string): ConnectorStatus {
    return this.#statuses.get(id) ?? { state: 'unknown' };
  }

  onChange(listener: (id: string, status: ConnectorStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  set(id: string, status: ConnectorStatus): void {
    const previous = this.#statuses.get(id);
    if (previous && previous.state === status.state && previous.reason === status.reason) {
      previous.checkedAt = status.checkedAt;
      return;
    }
    this.#statuses.set(id, status);
    for (const listener of this.#listeners) listener(id, status);
  }

  /** A tool call met the sign-in page. */
  signedOut(connector: Connector, signInUrl: string): void {
    this.set(connector.id, { state: 'signed-out', signInUrl, checkedAt: this.timers.now() });
  }

  /** A tool call went through. */
  worked(connector: Connector): void {
    this.set(connector.id, { state: 'healthy', checkedAt: this.timers.now() });
  }

  /** Runs one connector's check now; a check already running is shared, not repeated. */
  check(connector: Connector): Promise<ConnectorStatus> {
    const running = this.#running.get(connector.id);
    if (running) return running;
    this.set(connector.id, { state: 'checking' });
    const work = this.#check(connector).then((status) => {
      this.set(connector.id, status);
      return status;
    });
    const tracked = work.finally(() => this.#running.delete(connector.id));
    this.#running.set(connector.id, tracked);
    return tracked;
  }

  async #check(connector: Connector): Promise<ConnectorStatus> {
    const checkedAt = this.timers.now();
    try {
      const result = await this.probe.check(connector, AbortSignal.timeout(CHECK_TIMEOUT_MS));
      if (typeof result === 'object') return { ...result, checkedAt };
      if (result) return { state: 'healthy', checkedAt };
      const signInUrl = this.probe.signInUrl(connector);
      return { state: 'signed-out', ...(signInUrl ? { signInUrl } : {}), checkedAt };
    } catch (error) {
      if (error instanceof AuthExpiredError) {
        const signInUrl = this.probe.signInUrl(connector);
        return { state: 'signed-out', ...(signInUrl ? { signInUrl } : {}), checkedAt };
      }
      return { state: 'failing', reason: (error as Error)?.message ?? String(error), checkedAt };
    }
  }

  async checkAll(): Promise<void> {
    await Promise.all(this.enabledConnectors().map((connector) => this.check(connector)));
  }

  /** Checks every enabled connector now and then every `minutes`. */
  start(minutes = DEFAULT_HEALTH_MINUTES): void {
    this.stop();
    this.#timer = this.timers.setInterval(() => void this.checkAll(), minutes * 60_000);
    void this.checkAll();
  }

  stop(): void {
    if (this.#timer !== undefined) this.timers.clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
