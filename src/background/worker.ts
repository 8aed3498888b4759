/**
 * The service worker wires the toolbar button to the side panel, keeps the dialog content scripts
 * registered for the allowed sites, keeps the record of the user's open dialogs and forwards the
 * audit log to the organisation's collector. Everything else lives in the panel page, which owns
 * the agent connections for its window.
 */
import '../zod-setup';
import { forwardAuditLog } from '../platform/chrome-audit-forward';
import { keepDialogScriptsInStep } from '../platform/chrome-dialog-scripts';
import { recordUserDialogs } from '../platform/chrome-user-dialogs';

keepDialogScriptsInStep();
recordUserDialogs();
forwardAuditLog();
chrome.runtime.onInstalled.addListener(() => void openPanelOnActionClick());
chrome.runtime.onStartup.addListener(() => void openPanelOnActionClick());
void openPanelOnActionClick();

async function openPanelOnActionClick(): Promise<void> {
  try {
    await chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true });
  } catch (error) {
    console.error('Tabwright: could not bind the toolbar button to the side panel', error);
  }
}
