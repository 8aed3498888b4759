/**
 * The gates' environment assembled from plain sources (settings getters, a permission checker,
 * the blocklist), so the panel only supplies `chrome.*` and the UI, and tests supply fakes. Every
 * getter is read on every call: a toggle applies to the next call without a reconnect.
 */
import type { Blocklist } from './blocklist';
import { captureRefusal } from './capture';
import { originRefusal, siteOrigin } from './origin';
import type { AuditEntry, ConfirmAnswer, ConfirmRequest, GateEnvironment } from './types';

export interface GateSources {
  now?(): number;
  killed(): boolean;
  actMode(): boolean;
  allowedSites(): readonly string[];
  screenshots(): boolean;
  blocklist(): Blocklist;
  /** Whether Chrome holds the host permission for this origin. */
  hasHostPermission(origin: string): Promise<boolean>;
  /** Whether Chrome holds `<all_urls>` (needed to capture the screen). */
  hasAllUrls(): Promise<boolean>;
  secretValues(): readonly string[];
  confirm(request: ConfirmRequest, signal: AbortSignal): Promise<ConfirmAnswer>;
  audit(entry: AuditEntry): void;
  /** Whether the organisation's policy lets agents reach this origin (always, without a policy). */
  policyAllowsSite?(origin: string): boolean;
  /** The organisation's policy wants every write confirmed: no "for this site" grants. */
  alwaysConfirm?(): boolean;
}

export function createGateEnvironment(sources: GateSources): GateEnvironment {
  return {
    now: sources.now ?? (() => Date.now()),
    killed: sources.killed,
    actMode: sources.actMode,
    async originRefusal(url) {
      const origin = siteOrigin(url);
      const blocked = url ? sources.blocklist().match(url) : undefined;
      return originRefusal(url, {
        allowedSites: sources.allowedSites(),
        chromeGranted: origin ? await sources.hasHostPermission(origin) : false,
        blockedBy: blocked?.entry.name,
        blockedRule: blocked?.rule,
        outsidePolicy: !!origin && sources.policyAllowsSite?.(origin) === false,
      });
    },
    async captureRefusal() {
      if (!sources.screenshots()) return captureRefusal(false, false);
      return captureRefusal(true, await sources.hasAllUrls());
    },
    secretValues: sources.secretValues,
    confirm: sources.confirm,
    audit: sources.audit,
    alwaysConfirm: () => sources.alwaysConfirm?.() ?? false,
  };
}
