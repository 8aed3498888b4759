/**
 * The service worker wires the toolbar button to the side panel and keeps the dialog content
 * scripts registered for the allowed sites. Everything else lives in the panel page, which owns
 * the agent connections for its window.
 */
import '../zod-setup';
import { keepDialogScriptsInStep } from '../platform/chrome-dialog-scripts';

keepDialogScriptsInStep();
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
