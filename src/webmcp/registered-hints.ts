/**
 * How strictly each page tool is gated, from two of the page's claims: the hints Chromium lists
 * and the hints the registration hook copied as the tool was registered
 * (src/page/main-world/tool-registrations.ts). Chromium drops MCP's `destructiveHint`, so the
 * hook's record is the only place a destructive tool can be seen to be one; a tool without a
 * record was registered out of the hook's sight, and is a write confirmed on every call. Where the
 * two disagree the stricter wins, and per document the strictest a name was ever seen at holds:
 * a page can make a tool stricter by anything it says, never laxer.
 */
import { z } from 'zod';
import type { DeclaredPageTool, Strictness } from './declared';

/** How a call is gated: run at once, confirmed (a "for this site" grant may cover it), or confirmed every time. */
export type { Strictness };

const RANK: Record<Strictness, number> = { read: 0, write: 1, 'every-call': 2 };
export const stricter = (a: Strictness, b: Strictness): Strictness => (RANK[a] >= RANK[b] ? a : b);

/** The hook's records as it writes them: `[name, readOnlyHint, destructiveHint]`, live registrations only. */
const Records = z.array(z.tuple([z.string().max(256), z.boolean(), z.boolean()])).max(1024);
const MAX_RECORDS_TEXT = 100_000;

export type Registrations = ReadonlyMap<string, { readOnlyHint: boolean; destructiveHint: boolean }>;

/** The records, or undefined when there are none to go by (missing, too long, malformed). */
export function parseRegistrations(text: unknown): Registrations | undefined {
  if (typeof text !== 'string' || text.length > MAX_RECORDS_TEXT) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const records = Records.safeParse(parsed);
  if (!records.success) return undefined;
  const map = new Map<string, { readOnlyHint: boolean; destructiveHint: boolean }>();
  for (const [name, readOnlyHint, destructiveHint] of records.data) {
    const before = map.get(name);
    map.set(name, {
      readOnlyHint: readOnlyHint && (before?.readOnlyHint ?? true),
      destructiveHint: destructiveHint || (before?.destructiveHint ?? false),
    });
  }
  return map;
}

/** More names than this in one document and every tool there is confirmed on every call. */
const MAX_REMEMBERED = 1024;

/** The strictest each tool name of one document was seen at; a new document starts afresh. */
export class HintMemory {
  #documentId: string | undefined;
  readonly #levels = new Map<string, Strictness>();
  #overflowed = false;

  /** Forgets what it knew when `documentId` is another document's (an unknown id never matches). */
  documentIs(documentId: string | undefined): void {
    if (documentId !== undefined && documentId === this.#documentId) return;
    this.#documentId = documentId;
    this.#levels.clear();
    this.#overflowed = false;
  }

  /** `level`, or the stricter one the name was seen at before in this document. */
  raise(name: string, level: Strictness): Strictness {
    if (this.#overflowed) return 'every-call';
    const raised = stricter(level, this.#levels.get(name) ?? 'read');
    if (!this.#levels.has(name) && this.#levels.size >= MAX_REMEMBERED) {
      this.#overflowed = true;
      return 'every-call';
    }
    this.#levels.set(name, raised);
    return raised;
  }
}

const isTrue = (annotations: Record<string, unknown>, ...names: string[]) =>
  names.some((name) => annotations[name] === true);

/** How Chromium's hints and the hook's record gate one tool; undefined when there is no record. */
function levelOf(
  annotations: Record<string, unknown>,
  record: { readOnlyHint: boolean; destructiveHint: boolean } | undefined,
): Strictness | undefined {
  if (!record) return undefined;
  if (record.destructiveHint || isTrue(annotations, 'consequentialHint', 'destructiveHint')) return 'every-call';
  return record.readOnlyHint && isTrue(annotations, 'readOnlyHint', 'readOnly') ? 'read' : 'write';
}

/**
 * The tools with the hints they are gated by: Chromium's, made as strict as the hook's records
 * and what `memory` saw earlier in the document; a tool with no record comes back `hintsUnseen`.
 */
export function withRegisteredHints(
  tools: readonly DeclaredPageTool[],
  registrations: Registrations | undefined,
  memory: HintMemory,
): DeclaredPageTool[] {
  return tools.map((tool) => {
    const given =
      typeof tool.annotations === 'object' && tool.annotations !== null
        ? (tool.annotations as Record<string, unknown>)
        : {};
    const name = typeof tool.name === 'string' ? tool.name : '';
    const seen = levelOf(given, registrations?.get(name));
    if (seen === undefined) return { ...tool, annotations: { consequentialHint: true }, hintsUnseen: true };
    const level = memory.raise(name, seen);
    return { ...tool, annotations: { readOnlyHint: level === 'read', consequentialHint: level === 'every-call' } };
  });
}
