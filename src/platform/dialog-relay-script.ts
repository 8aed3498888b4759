/**
 * Entry of the isolated-world content script (see page/dialogs/relay.ts): the panel reaches the
 * relay by its global, and the relay tells the panel of the browser's own dialogs by message.
 */
import { NATIVE_DIALOG_MESSAGE, RELAY_KEY, type NativeDialog } from '../page/dialogs/channel';
import { createDialogRelay, installedRelay } from '../page/dialogs/relay';

// No panel listening (none open), or an extension reloaded under this page, is not an error here.
function tellPanel(dialog: NativeDialog): void {
  try {
    void chrome.runtime.sendMessage({ type: NATIVE_DIALOG_MESSAGE, dialog }).catch(() => undefined);
  } catch {
    // The extension context is gone.
  }
}

if (!installedRelay(globalThis))
  (globalThis as unknown as Record<string, unknown>)[RELAY_KEY] = createDialogRelay(document, Date.now, tellPanel);
