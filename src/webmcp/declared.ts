/**
 * What a page's main world reports about its WebMCP tools, before anything is trusted, and how
 * strictly a tool is gated. Shared by the main-world functions, the reading of their answers and
 * the gates, which otherwise import nothing of each other.
 */

/** What the page's main world reports for one tool, before anything is trusted. */
export interface DeclaredPageTool {
  name?: unknown;
  title?: unknown;
  description?: unknown;
  /** Chromium hands the schema back as JSON text; other implementations may give the object. */
  inputSchema?: unknown;
  annotations?: unknown;
  /** Nothing says which hints the tool was registered with (registered-hints.ts): confirmed every call. */
  hintsUnseen?: boolean;
}

/** What one reading of a document gives: Chromium's list, and the registration hook's records. */
export interface PageToolsReading {
  tools: DeclaredPageTool[];
  /** The records of the hook (src/page/main-world/tool-registrations.ts) as JSON text, when a reader sits at the key. */
  registrations?: string;
}

/** Answers of the main-world functions (main-world.ts): `url` is where the page was when it answered. */
export type MainWorldAnswer<T> =
  | { ok: true; value: T; url: string }
  /** `changed`: the page made the tool stricter than it was gated as, so it did not run. */
  | { ok: false; error: string; url: string; changed?: true };

/** How the gates take a tool: a read, a write, or a write confirmed on every call. */
export type Strictness = 'read' | 'write' | 'every-call';
