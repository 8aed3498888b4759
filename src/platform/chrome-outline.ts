/**
 * `OutlinePort` over the page agent. Showing goes through the call's own page guard (which injects
 * the agent on first use, and only into a document the gates allow); hiding only asks an agent that
 * is already there, so a document the action navigated to is never injected just to remove an
 * outline it does not have.
 */
import type { OutlinePort } from '../presence/call-presence';

/** Runs in the page; must not close over anything. */
function hideIfPresent(): void {
  const agent = (globalThis as unknown as Record<string, { handle(c: unknown): unknown } | undefined>)
    .__tabwrightPageAgent;
  agent?.handle({ op: 'outline', show: false });
}

export function chromeOutline(): OutlinePort {
  return {
    async show(page, tabId, label, colour, leaseMs) {
      await page.run(tabId, { op: 'outline', show: true, label, colour, leaseMs }, { frameId: 0 });
    },
    async hide(tabId) {
      await chrome.scripting.executeScript({ target: { tabId, frameIds: [0] }, func: hideIfPresent });
    },
  };
}
