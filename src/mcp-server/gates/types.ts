/** What the gates need from the panel, read fresh on every call so toggles apply to the next call. */

/** `cancelled`: the call was withdrawn (the agent cancelled, or its connection closed) before an answer. */
export type ConfirmAnswer = 'once' | 'site' | 'deny' | 'timeout' | 'cancelled';

export interface ConfirmRequest {
  agentName: string;
  server: string;
  tool: string;
  /** Where the call acts: the tab's origin, or for tab tools the origin of the tab they open or name. */
  origin: string;
  /** Where a navigation would take the tab, when that differs from `origin`. */
  destination?: string;
  /** The exact arguments, secrets already masked. */
  args: Record<string, unknown>;
  /** The full URL of the tab the call acts on, for calls that act on a page. */
  url?: string;
  /** Each ref/selector in the arguments, as the page described it just before asking. */
  targets?: ConfirmTarget[];
  /** The tool asks on every call (a page marked it consequential): the card offers no "for this site". */
  everyTime?: true;
}

export interface ConfirmTarget {
  /** The ref or selector as the agent gave it; for an element named by role and name, that and its ref. */
  target: string;
  /** The element's role and accessible name in the page; absent when the page found no such element. */
  element?: { role: string; name: string };
}

export type GateName =
  'arguments' | 'kill-switch' | 'exposure' | 'act-mode' | 'target' | 'origin' | 'screenshots' | 'confirmation';

export type AuditOutcome = 'ok' | 'error' | 'cancelled' | `refused:${GateName}`;

/**
 * How a call came to run or not: no question needed (a read), the person's answer on the card,
 * an earlier "for this site" answer, or a gate that refused it before anyone was asked.
 */
export type AuditDecision = 'read' | 'once' | 'site' | 'granted' | 'denied' | 'timed-out' | 'withdrawn' | 'refused';

export interface AuditEntry {
  /** Unique per entry, so logs written by several panels merge without losing or doubling lines. */
  id?: string;
  time: number;
  agent: string;
  server: string;
  tool: string;
  origin: string;
  destination?: string;
  /** Arguments with secrets masked and long values shortened. */
  args: Record<string, unknown>;
  /** Each element the agent named by role and name, and the ref it was looked up as: `button "Save" → e12`. */
  targets?: string[];
  outcome: AuditOutcome;
  /** How it was decided; absent in entries written before decisions were recorded. */
  decision?: AuditDecision;
  /** The page the call acted on, as the card showed it. */
  url?: string;
  /** Each element the call acts on as the card named it: `button "Place order"`. */
  elements?: string[];
  detail?: string;
  /** Time the call took, the person's think time on the card left out. */
  durationMs: number;
  /** Time the card waited for the person's answer. */
  waitMs?: number;
  /** The hash of the entry before this one in the log's chain (audit-chain.ts). */
  prev?: string;
  /** The hash of this entry's content and `prev`. */
  hash?: string;
}

export interface GateEnvironment {
  now(): number;
  /** "Disconnect all" was pressed and no agent was reconnected since. */
  killed(): boolean;
  actMode(): boolean;
  /** Refusal text when the URL may not be touched (scheme, allowed sites, Chrome's grant, blocklist). */
  originRefusal(url: string | undefined): Promise<string | undefined>;
  /** Refusal text when screenshots are off or Chrome has not granted `<all_urls>`. */
  captureRefusal(): Promise<string | undefined>;
  /** Values the user marked as secret: masked wherever they appear in arguments and results. */
  secretValues(): readonly string[];
  /** Asks the user; resolves 'timeout' when nobody answers in time, 'cancelled' when `signal` aborts. */
  confirm(request: ConfirmRequest, signal: AbortSignal): Promise<ConfirmAnswer>;
  audit(entry: AuditEntry): void;
  /** Every write asks, whatever was answered before (an organisation's policy); false when absent. */
  alwaysConfirm?(): boolean;
}
