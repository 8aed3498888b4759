/**
 * What a tick of the page's clock runs in the page (see chrome-page.ts). A module of its own, with
 * no imports, so the test build's call counter can tell ticks apart without loading anything else.
 */

/** Runs in the page; must not close over anything. */
export function tickAgent(): void {
  (globalThis as unknown as Record<string, { tick(): void } | undefined>).__tabwrightPageAgent?.tick();
}
