/**
 * The panel's record of which caller owns which tab, kept in session storage: it lasts while the
 * browser's tab ids do (a panel closed and opened again finds it), and a browser restart, which
 * gives every tab a new id, starts it afresh. A tab that closes leaves its owner.
 */
import { TabOwnership } from '../mcp-server/tab-ownership';

const keyFor = (windowId: number) => `tabOwnership:${windowId}`;

export async function loadTabOwnership(windowId: number): Promise<TabOwnership> {
  const key = keyFor(windowId);
  const stored = (await chrome.storage.session.get(key))[key];
  const ownership = new TabOwnership(stored);
  // Tabs that closed while no panel listened go now.
  const open = new Set((await chrome.tabs.query({})).map((tab) => tab.id));
  for (const [tabId] of ownership.record().owners) if (!open.has(tabId)) ownership.closed(tabId);
  let writing: Promise<void> = Promise.resolve();
  const save = () => {
    writing = writing
      .then(() => chrome.storage.session.set({ [key]: ownership.record() }))
      .catch((error: unknown) => console.warn('Tabwright: could not keep tab ownership', error));
  };
  ownership.onChange(save);
  save();
  chrome.tabs.onRemoved.addListener((tabId) => ownership.closed(tabId));
  return ownership;
}
