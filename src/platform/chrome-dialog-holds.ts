/**
 * Feeds `DialogHolds` (mcp-server/dialog-holds.ts) from Chrome: the dialog relays' messages, with
 * the tab, frame and document Chrome names as their sender, and the tab closing or its top document
 * changing, which ends any dialog an earlier document showed. The check that a page runs is a trivial script in its top frame.
 */
import { DialogHolds, readNativeDialogMessage, type ResponsivenessProbe } from '../mcp-server/dialog-holds';

export const chromeProbe: ResponsivenessProbe = {
  answers(tabId, ms) {
    const ran = chrome.scripting
      // At once, not at document_idle: a page still loading runs it too, unless a dialog holds it.
      .executeScript({ target: { tabId, frameIds: [0] }, func: () => true, injectImmediately: true })
      .then(
        () => true,
        // A tab that is gone or not scriptable is not held by a dialog; the call will say what it is.
        () => true,
      );
    return Promise.race([ran, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
  },
};

/** Holds for every tab, kept current from Chrome's events while the panel lives. */
export function watchDialogHolds(probe: ResponsivenessProbe = chromeProbe): DialogHolds {
  const holds = new DialogHolds(probe);
  chrome.runtime.onMessage.addListener((message, sender) => {
    if (sender.id !== chrome.runtime.id || sender.tab?.id === undefined) return;
    const dialog = readNativeDialogMessage(message);
    if (!dialog) return;
    if (dialog.state === 'open') holds.opened(sender.tab.id, sender.frameId ?? 0, dialog.kind, sender.documentId);
    else holds.closed(sender.tab.id, sender.frameId ?? 0);
  });
  chrome.tabs.onRemoved.addListener((tabId) => holds.forget(tabId));
  chrome.webNavigation.onCommitted.addListener((details) => {
    if (details.frameId === 0) holds.committed(details.tabId, (details as { documentId?: string }).documentId);
  });
  return holds;
}
