/** What the gates need from the panel, read fresh on every call so toggles apply to the next call. */

export type ConfirmAnswer = 'once' | 'site' | 'deny' | 'timeout';

export interface ConfirmRequest {
  agentName: string;
  server: string;
  tool: string;
  origin: string;
  /** The exact arguments, secrets already masked. */
  args: Record<string, unknown>;
}

export type AuditOutcome = 'ok' | 'error' | `refused:${GateName}`;

export type GateName = 'arguments' | 'kill-switch' | 'act-mode' | 'target' | 'origin' | 'confirmation';

export interface AuditEntry {
  time: number;
  agent: string;
  server: string;
  tool: string;
  origin: string;
  args: Record<string, unknown>;
  outcome: AuditOutcome;
  detail?: string;
  durationMs: number;
}

export interface GateEnvironment {
  now(): number;
  /** "Disconnect all" was pressed and no agent was reconnected since. */
  killed(): boolean;
  actMode(): boolean;
  /** Refusal text when the URL's origin may not be touched, undefined when it may. */
  originRefusal(url: string | undefined): Promise<string | undefined>;
  /** Asks the user; resolves 'timeout' when nobody answers in time. */
  confirm(request: ConfirmRequest, signal: AbortSignal): Promise<ConfirmAnswer>;
  audit(entry: AuditEntry): void;
}
