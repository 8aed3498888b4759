/**
 * The gates' view of the panel: live settings, Chrome's permissions, the kill switch, the user's
 * confirmations and the audit log. Read on every call, so a toggle applies to the next call.
 * Everything here that touches `chrome.*` is a thin call; the decisions live in `mcp-server/gates`.
 */
import { Blocklist, effectiveBlocklist } from '../mcp-server/gates/blocklist';
import { ALL_URLS } from '../mcp-server/gates/capture';
import { createGateEnvironment } from '../mcp-server/gates/environment';
import type { KillSwitch } from '../mcp-server/gates/kill-switch';
import type { AuditEntry, ConfirmAnswer, ConfirmRequest, GateEnvironment } from '../mcp-server/gates/types';
import type { Settings } from '../shared/settings';
import type { StorageArea } from '../shared/stores';

export interface ConfirmationUi {
  ask(request: ConfirmRequest, timeoutMs: number, signal: AbortSignal): Promise<ConfirmAnswer>;
}

export interface PanelGatesOptions {
  settings(): Settings;
  killed(): boolean;
  confirmations: ConfirmationUi;
  audit(entry: AuditEntry): void;
  secretValues(): readonly string[];
  hasHostPermission(origin: string): Promise<boolean>;
  hasAllUrls(): Promise<boolean>;
  policyAllowsSite?(origin: string): boolean;
  alwaysConfirm?(): boolean;
}

/** The blocklist for the current settings, rebuilt only when the user's changes do. */
export function blocklistFor(settings: () => Settings): () => Blocklist {
  let source: Settings['blocklist'] | undefined;
  let built: Blocklist | undefined;
  return () => {
    const changes = settings().blocklist;
    if (!built || changes !== source) {
      source = changes;
      built = new Blocklist(effectiveBlocklist(changes));
    }
    return built;
  };
}

export function createPanelGates(options: PanelGatesOptions): GateEnvironment {
  return createGateEnvironment({
    killed: options.killed,
    actMode: () => options.settings().actMode,
    allowedSites: () => options.settings().allowedSites,
    screenshots: () => options.settings().screenshots,
    blocklist: blocklistFor(options.settings),
    hasHostPermission: options.hasHostPermission,
    hasAllUrls: options.hasAllUrls,
    secretValues: options.secretValues,
    confirm: (request, signal) =>
      options.confirmations.ask(request, options.settings().confirmationTimeoutSec * 1000, signal),
    audit: options.audit,
    ...(options.policyAllowsSite ? { policyAllowsSite: options.policyAllowsSite } : {}),
    ...(options.alwaysConfirm ? { alwaysConfirm: options.alwaysConfirm } : {}),
  });
}

const originPattern = (origin: string) => `${origin}/*`;

export async function chromeHasHostPermission(origin: string): Promise<boolean> {
  try {
    return await chrome.permissions.contains({ origins: [originPattern(origin)] });
  } catch {
    return false;
  }
}

export async function chromeHasAllUrls(): Promise<boolean> {
  try {
    return await chrome.permissions.contains({ origins: [ALL_URLS] });
  } catch {
    return false;
  }
}

/** Must be called straight from a click: Chrome only shows its prompt during a user gesture. */
export function requestHostPermission(origin: string): Promise<boolean> {
  return chrome.permissions.request({ origins: [originPattern(origin)] }).catch(() => false);
}

/**
 * Gives a site's permission back. Chrome refuses for origins the build requires (the test build's
 * loopback hosts) and for origins covered only by `<all_urls>`; the allowlist still rules them out.
 */
export function releaseHostPermission(origin: string): Promise<boolean> {
  return chrome.permissions.remove({ origins: [originPattern(origin)] }).catch(() => false);
}

export function requestAllUrls(): Promise<boolean> {
  return chrome.permissions.request({ origins: [ALL_URLS] }).catch(() => false);
}

export function releaseAllUrls(): Promise<boolean> {
  return chrome.permissions.remove({ origins: [ALL_URLS] }).catch(() => false);
}

const KILL_SWITCH_KEY = 'killSwitch';

/**
 * "Disconnect all" outlives the panel: a user who pulled the switch and reopens the panel (or
 * restarts the browser) expects the agents to stay disconnected until they reconnect one. The
 * state is shared by every window's panel, so pulling it anywhere stops agents everywhere.
 */
export async function persistKillSwitch(killSwitch: KillSwitch, area: StorageArea): Promise<void> {
  const { [KILL_SWITCH_KEY]: stored } = await area.get([KILL_SWITCH_KEY]);
  if (stored === true) killSwitch.engage();
  killSwitch.onChange((engaged) => void area.set({ [KILL_SWITCH_KEY]: engaged }));
}

/** Calls `listener` when another panel pulls the kill switch. */
export function watchStoredKillSwitch(listener: (engaged: boolean) => void): void {
  chrome.storage.onChanged.addListener((changes, areaName) => {
    const change = changes[KILL_SWITCH_KEY];
    if (areaName === 'local' && change) listener(change.newValue === true);
  });
}
