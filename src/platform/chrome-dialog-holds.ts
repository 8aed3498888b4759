/**
 * Feeds `DialogHolds` (mcp-server/dialogs/holds.ts) from Chrome: on start, the dialogs the service
 * worker recorded before the panel opened; then the dialog relays' reports, and the tab closing or
 * its top document changing, which ends any dialog an earlier document showed. The check that a
 * page runs is a trivial script in its top frame.
 */
import { DialogHolds, type ResponsivenessProbe } from '../mcp-server/dialogs';
import { recordedUserDialogs, userDialogReport } from './chrome-user-dialogs';

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
    const report = userDialogReport(message, sender);
    if (!report) return;
    const { tabId, frameId, documentId, dialog } = report;
    if (dialog.state === 'open') holds.opened(tabId, frameId, dialog.kind, documentId);
    else holds.closed(tabId, frameId);
  });
  chrome.tabs.onRemoved.addListener((tabId) => holds.forget(tabId));
  chrome.webNavigation.onCommitted.addListener((details) => {
    if (details.frameId === 0) holds.committed(details.tabId, (details as { documentId?: string }).documentId);
  });
  // Dialogs that opened before this panel did; what is heard from now on wins over the record.
  recordedUserDialogs().then(
    (records) => holds.restore(records),
    (error) => console.error('Tabwright: could not read the open dialogs', error),
  );
  return holds;
}
