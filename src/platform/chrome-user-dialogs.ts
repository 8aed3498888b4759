/**
 * The user's own dialogs as Chrome delivers the relays' reports (see page/dialogs/relay.ts). Both
 * the panel and the service worker hear each report. The worker keeps the open ones in session
 * storage, so a panel opened while a dialog is up knows its tab is held; without that, its first
 * call there would wait on the page until the user answered.
 */
import type { NativeDialog } from '../page/dialogs/channel';
import {
  OpenDialogs,
  readNativeDialogMessage,
  readOpenDialogRecords,
  type OpenDialogRecord,
} from '../mcp-server/dialogs';

const RECORD_KEY = 'userDialogs';

export interface UserDialogReport {
  tabId: number;
  frameId: number;
  documentId: string | undefined;
  dialog: NativeDialog;
}

/** A relay's report, with the tab, frame and document Chrome says sent it; undefined for any other message. */
export function userDialogReport(message: unknown, sender: chrome.runtime.MessageSender): UserDialogReport | undefined {
  if (sender.id !== chrome.runtime.id || sender.tab?.id === undefined) return undefined;
  const dialog = readNativeDialogMessage(message);
  if (!dialog) return undefined;
  return { tabId: sender.tab.id, frameId: sender.frameId ?? 0, documentId: sender.documentId, dialog };
}

/**
 * In the service worker: keeps the record current, one report after another. The worker follows
 * no tab closing or navigating (that would wake it for every page load); a closed tab's records go
 * at the next write, and the panel checks each record's document before it believes it.
 */
export function recordUserDialogs(): void {
  let queue: Promise<void> = Promise.resolve();
  chrome.runtime.onMessage.addListener((message, sender) => {
    const report = userDialogReport(message, sender);
    if (!report) return;
    queue = queue
      .then(() => applyReport(report))
      .catch((error) => console.error('Tabwright: could not record a dialog', error));
  });
}

async function storedRecords(): Promise<OpenDialogRecord[]> {
  return readOpenDialogRecords((await chrome.storage.session.get(RECORD_KEY))[RECORD_KEY]);
}

async function applyReport({ tabId, frameId, documentId, dialog }: UserDialogReport): Promise<void> {
  const stored = await storedRecords();
  const tabs = new Set((await chrome.tabs.query({})).map((tab) => tab.id));
  const dialogs = new OpenDialogs(stored.filter((record) => tabs.has(record.tabId)));
  if (dialog.state === 'open') dialogs.opened(tabId, frameId, dialog.kind, documentId);
  else dialogs.closed(tabId, frameId);
  await chrome.storage.session.set({ [RECORD_KEY]: dialogs.records() });
}

/** In the panel: the recorded dialogs whose frame still shows the document that opened them. */
export async function recordedUserDialogs(): Promise<OpenDialogRecord[]> {
  const records = await storedRecords();
  const current = await Promise.all(
    records.map(async (record) => {
      const frame = await chrome.webNavigation
        .getFrame({ tabId: record.tabId, frameId: record.frameId })
        .catch(() => null);
      if (!frame) return undefined;
      return !record.documentId || frame.documentId === record.documentId ? record : undefined;
    }),
  );
  return current.filter((record) => record !== undefined);
}
