/** Helpers the reading tools share: taking a snapshot, and labels for page text. */
import type { TabInfo } from '../browser-port';
import type { CaptureOptions, Snapshot } from '../snapshot-service';
import type { ToolContext } from '../tool';

export function captureOptions(ctx: ToolContext, extra: { selector?: string } = {}): CaptureOptions {
  return { signal: ctx.signal, ...(extra.selector ? { selector: extra.selector } : {}) };
}

/** A snapshot of the call's tab through the call's guarded page. */
export function captureTab(ctx: ToolContext, tab: TabInfo, extra: { selector?: string } = {}): Promise<Snapshot> {
  return ctx.snapshots.capture(ctx.page, tab, captureOptions(ctx, extra));
}

export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'unknown';
  }
}

/** A visible cut for capped page text, saying how to see the rest. */
export function cutNote(shown: number, total: number, maxChars: number): string {
  return (
    `\n# … cut: showing ${shown} of ${total} characters (budget ${maxChars}). ` +
    'Pass a `selector` for one part of the page, or a larger `maxChars` (0 for no budget).'
  );
}
