/**
 * The gates' view of the panel: live settings, Chrome's permissions, the kill switch, the user's
 * confirmations and the audit log. Read on every call, so a toggle applies to the next call.
 */
import type { AuditEntry, ConfirmAnswer, ConfirmRequest, GateEnvironment } from '../mcp-server/gates/types';
import { originRefusal, siteOrigin } from '../mcp-server/gates/origin';
import type { Settings } from '../shared/settings';

export interface ConfirmationUi {
  ask(request: ConfirmRequest, timeoutMs: number, signal: AbortSignal): Promise<ConfirmAnswer>;
}

export interface PanelGatesOptions {
  settings(): Settings;
  killed(): boolean;
  confirmations: ConfirmationUi;
  audit(entry: AuditEntry): void;
  /** Blocklist lookup: the entry name when the URL is high-risk. */
  blockedBy(url: string): string | undefined;
  hasHostPermission(origin: string): Promise<boolean>;
}

export function createPanelGates(options: PanelGatesOptions): GateEnvironment {
  return {
    now: () => Date.now(),
    killed: options.killed,
    actMode: () => options.settings().actMode,
    async originRefusal(url) {
      const origin = siteOrigin(url);
      const settings = options.settings();
      return originRefusal(url, {
        allowedSites: settings.allowedSites,
        chromeGranted: origin ? await options.hasHostPermission(origin) : false,
        blockedBy: url ? options.blockedBy(url) : undefined,
      });
    },
    confirm: (request, signal) =>
      options.confirmations.ask(request, options.settings().confirmationTimeoutSec * 1000, signal),
    audit: options.audit,
  };
}

export async function chromeHasHostPermission(origin: string): Promise<boolean> {
  try {
    return await chrome.permissions.contains({ origins: [`${origin}/*`] });
  } catch {
    return false;
  }
}
