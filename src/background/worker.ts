/**
 * The service worker only wires the toolbar button to the side panel. Everything else lives in the
 * panel page, which owns the agent connections for its window.
 */
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
