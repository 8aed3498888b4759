/**
 * How a tool call fails: anything that goes wrong below the server throws, and the server turns it
 * into the tool's error result in one place (gated-server.ts). A `ToolFailure` carries words
 * meant for the model — what failed and what to do next — and is shown as it is; anything else is
 * a fault, shown as such. The texts of failures that several layers can meet are written here,
 * once.
 */

/** A failure whose message the model reads as the tool's answer. */
export class ToolFailure extends Error {}

export const FAILURE_TEXT = {
  tabClosed: 'The tab was closed.',
  noTab: 'There is no tab to act on.',
  noPage: 'The tab has no page to read.',
} as const;

/** The tool's error text for anything a call threw. */
export function failureText(error: unknown): string {
  if (error instanceof ToolFailure) return error.message;
  return `The tool failed: ${(error as Error)?.message ?? String(error)}`;
}
