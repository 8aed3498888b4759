/**
 * Entry of the isolated-world content script (see page/dialogs/relay.ts): the panel reaches the
 * relay by its global, and the relay tells the panel of the browser's own dialogs by message.
 * While armed, the relay keeps a port open to the panel that armed it; the port closes when that
 * panel releases the arming or goes away, and the relay disarms then. It also hands the main-world
 * script the question the page agent asks about listeners (page/listener-channel.ts).
 */
import { ARMING_PORT_PREFIX, NATIVE_DIALOG_MESSAGE, RELAY_KEY, type NativeDialog } from '../page/dialogs/channel';
import { createDialogRelay, installedRelay } from '../page/dialogs/relay';
import { offerListenerQuery } from '../page/listener-channel';

// No panel listening (none open), or an extension reloaded under this page, is not an error here.
function tellPanel(dialog: NativeDialog): void {
  try {
    void chrome.runtime.sendMessage({ type: NATIVE_DIALOG_MESSAGE, dialog }).catch(() => undefined);
  } catch {
    // The extension context is gone.
  }
}

function holdArming(token: string, gone: () => void): void {
  try {
    const port = chrome.runtime.connect({ name: `${ARMING_PORT_PREFIX}${token}` });
    // Fires when the panel that armed it disconnects, when every other listener has declined it,
    // and at once when no panel listens at all.
    port.onDisconnect.addListener(() => {
      void chrome.runtime.lastError;
      gone();
    });
  } catch {
    // The extension context is gone: so is the panel that armed us.
    gone();
  }
}

if (!installedRelay(globalThis))
  (globalThis as unknown as Record<string, unknown>)[RELAY_KEY] = createDialogRelay(document, {
    onNative: tellPanel,
    hold: holdArming,
  });

offerListenerQuery(document);
