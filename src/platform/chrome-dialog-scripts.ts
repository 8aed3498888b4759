/**
 * Keeps the dialog content scripts registered for exactly the allowed, granted sites. Runs in the
 * service worker, which outlives the panel, whenever the settings or Chrome's grants change.
 */
import { dialogScriptMatches, dialogScripts, sameRegistration, DIALOG_SCRIPT_IDS } from '../shared/dialog-scripts';
import { SettingsStore } from '../shared/stores';

async function syncOnce(): Promise<void> {
  const { settings } = await new SettingsStore(chrome.storage.local).load();
  const matches = await dialogScriptMatches(settings.allowedSites, (pattern) =>
    chrome.permissions.contains({ origins: [pattern] }),
  );
  const wanted = dialogScripts(matches);
  const registered = await chrome.scripting.getRegisteredContentScripts({ ids: DIALOG_SCRIPT_IDS });
  if (sameRegistration(registered, wanted)) return;
  if (registered.length) await chrome.scripting.unregisterContentScripts({ ids: registered.map((s) => s.id) });
  if (wanted.length) await chrome.scripting.registerContentScripts(wanted);
}

let queue: Promise<void> = Promise.resolve();

/** Brings the registration in line with the settings; calls run one after another. */
export function syncDialogScripts(): Promise<void> {
  queue = queue
    .then(syncOnce)
    .catch((error) => console.error('Tabwright: could not register the dialog scripts', error));
  return queue;
}

/** Re-registers whenever the allowed sites or Chrome's grants may have changed. */
export function keepDialogScriptsInStep(): void {
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && 'settings' in changes) void syncDialogScripts();
  });
  chrome.permissions.onAdded.addListener(() => void syncDialogScripts());
  chrome.permissions.onRemoved.addListener(() => void syncDialogScripts());
  chrome.runtime.onInstalled.addListener(() => void syncDialogScripts());
  chrome.runtime.onStartup.addListener(() => void syncDialogScripts());
  void syncDialogScripts();
}
