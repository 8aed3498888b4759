/**
 * The dialog relays of a tab's frames (src/page/dialogs/relay.ts), reached through
 * `chrome.scripting` in the isolated world. A frame without the relay (a site that is not
 * allowed, or a document that loaded before the site was) simply has nothing to say.
 */
import {
  ArmingClaims,
  type DialogAnswer,
  type DialogPort,
  type DialogRecord,
  type FrameDialogs,
  type LeaveMode,
} from '../mcp-server/dialogs';
import { ARMING_PORT_PREFIX } from '../page/dialogs/channel';

type Relay = {
  arm(token: string, answer: DialogAnswer | null): boolean;
  collect(token: string): DialogRecord[];
  leave(mode: LeaveMode): { asks: boolean } | undefined;
};

// The functions below run in the page and must not close over anything; the key is repeated there.
function armRelay(token: string): boolean {
  const relay = (globalThis as unknown as Record<string, Relay | undefined>).__tabwrightDialogRelay;
  return relay ? relay.arm(token, null) : false;
}

function collectRelay(token: string): DialogRecord[] {
  const relay = (globalThis as unknown as Record<string, Relay | undefined>).__tabwrightDialogRelay;
  return relay ? relay.collect(token) : [];
}

function leaveRelay(mode: LeaveMode): { asks: boolean } | null {
  const relay = (globalThis as unknown as Record<string, Relay | undefined>).__tabwrightDialogRelay;
  return relay?.leave(mode) ?? null;
}

const isRecord = (value: unknown): value is DialogRecord =>
  !!value &&
  typeof value === 'object' &&
  ['alert', 'confirm', 'prompt'].includes((value as DialogRecord).kind) &&
  typeof (value as DialogRecord).message === 'string' &&
  typeof (value as DialogRecord).url === 'string' &&
  ['undefined', 'boolean'].includes(typeof (value as DialogRecord).attributed);

export class ChromeDialogs implements DialogPort {
  readonly #claims = new ArmingClaims();

  constructor() {
    // Every panel hears every relay's line; each keeps only the lines of its own calls.
    chrome.runtime.onConnect.addListener((port) => {
      if (!port.name.startsWith(ARMING_PORT_PREFIX)) return;
      this.#claims.accept(port.name.slice(ARMING_PORT_PREFIX.length), {
        disconnect: () => port.disconnect(),
        onDisconnect: (listener) => port.onDisconnect.addListener(listener),
      });
    });
  }

  claim(token: string): () => void {
    return this.#claims.claim(token);
  }

  async arm(tabId: number, token: string): Promise<void> {
    await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func: armRelay, args: [token] });
  }

  async collect(tabId: number, token: string): Promise<FrameDialogs[]> {
    const results = await chrome.scripting.executeScript({
      target: { tabId, allFrames: true },
      func: collectRelay,
      args: [token],
    });
    return results.map((result) => ({
      frameId: result.frameId,
      records: Array.isArray(result.result) ? (result.result as unknown[]).filter(isRecord) : [],
    }));
  }

  async leave(tabId: number, mode: LeaveMode): Promise<{ frameId: number; asks: boolean }[]> {
    const results = await chrome.scripting.executeScript({
      target: { tabId, allFrames: true },
      func: leaveRelay,
      args: [mode],
    });
    return results
      .filter((result) => result.result && typeof result.result === 'object')
      .map((result) => ({ frameId: result.frameId, asks: (result.result as { asks?: unknown }).asks === true }));
  }
}
