/** Helpers the reading tools share: which frames may be shown, and labels for page text. */
import type { CaptureOptions } from '../snapshot-service';
import type { ToolContext } from '../tool';

/** Child frames are shown only when the gates would allow their site too. */
export function captureOptions(ctx: ToolContext, extra: { selector?: string } = {}): CaptureOptions {
  return {
    signal: ctx.signal,
    frameAllowed: async (url) => (await ctx.checkDestination(url)) === undefined,
    ...(extra.selector ? { selector: extra.selector } : {}),
  };
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
