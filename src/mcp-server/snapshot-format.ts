/**
 * How a snapshot reads to the model: a one-line header, the tree with each table row on one line,
 * and — over budget — a visible cut that says how to narrow. `find` greps the page's own lines, a
 * cell on a line of its own.
 */
import { neutraliseText } from '../shared/text/line';
import { isCommentLine, roleOfLine, withoutRefs } from '../page/snapshot-line';
import { foldRows } from '../page/snapshot-rows';
import { placeLine, placeOf, treeOf } from './line-place';

export const DEFAULT_MAX_CHARS = 24_000;

export interface SnapshotText {
  title: string;
  url: string;
  lines: readonly string[];
}

/** One line: the title, and the url without the origin that the untrusted wrapper around it names. */
export function snapshotHeader(snapshot: Pick<SnapshotText, 'title' | 'url'>, origin = ''): string {
  return `# snapshot — ${neutraliseText(snapshot.title)} · ${neutraliseText(urlWithin(snapshot.url, origin))}`;
}

/** Lines that fit in `budget` characters (newlines counted), and how many did not. */
function fit(lines: readonly string[], budget: number): { kept: string[]; omitted: number; omittedChars: number } {
  const kept: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length + 1 > budget) break;
    kept.push(line);
    used += line.length + 1;
  }
  let omittedChars = 0;
  for (let i = kept.length; i < lines.length; i++) omittedChars += lines[i]!.length + 1;
  return { kept, omitted: lines.length - kept.length, omittedChars };
}

/** Room kept for the truncation note, so the whole text stays within the budget. */
const NOTE_ROOM = 320;

/**
 * The snapshot as the model reads it, cut visibly when over `maxChars` (0 = no budget). A caller
 * that already folded the rows passes them as `folded`.
 */
export function formatSnapshot(
  snapshot: SnapshotText,
  maxChars = DEFAULT_MAX_CHARS,
  origin = '',
  folded?: readonly string[],
): string {
  const header = snapshotHeader(snapshot, origin);
  const lines = folded ?? foldRows(snapshot.lines);
  const body = lines.join('\n');
  if (maxChars === 0 || header.length + 1 + body.length <= maxChars) return body ? `${header}\n${body}` : header;
  const { kept, omitted, omittedChars } = fit(lines, Math.max(0, maxChars - header.length - 1 - NOTE_ROOM));
  const note =
    `# … ${omitted} more lines (${omittedChars} characters) not shown: over the ${maxChars}-character budget. ` +
    'Read one part with `selector` (CSS), search with `find` (text or role), scroll, ' +
    'or pass a larger `maxChars` (0 for no budget).';
  return [header, ...kept, note].join('\n');
}

export interface FindQuery {
  text?: string;
  role?: string;
  /** Lines around each match; absent or 0: each match under its place instead. */
  context?: number;
}

export interface Found {
  /** Each group: lines around matches (`context`), or a place line and the matches it holds. */
  groups: string[][];
  matches: number;
  /** Groups start with their place line, so they need no separator. */
  placed: boolean;
}

/**
 * Lines of `lines` that match. With `context`, each with that many lines around it, overlapping
 * groups merged; without, each match once, under the place line it shares with the matches
 * before it (line-place.ts).
 */
export function findLines(lines: readonly string[], query: FindQuery): Found {
  const text = query.text?.trim().toLowerCase();
  const role = query.role?.trim().toLowerCase();
  const context = query.context ?? 0;
  const hits: number[] = [];
  lines.forEach((line, index) => {
    if (role && roleOfLine(line) !== role) return;
    if (text && !withoutRefs(line).toLowerCase().includes(text)) return;
    if (isCommentLine(line)) return;
    hits.push(index);
  });
  if (context === 0) return { groups: placedGroups(lines, hits), matches: hits.length, placed: true };
  const groups: string[][] = [];
  let start = -1;
  let end = -1;
  for (const hit of hits) {
    const from = Math.max(0, hit - context);
    const to = Math.min(lines.length - 1, hit + context);
    if (start >= 0 && from <= end + 1) end = Math.max(end, to);
    else {
      if (start >= 0) groups.push(lines.slice(start, end + 1));
      start = from;
      end = to;
    }
  }
  if (start >= 0) groups.push(lines.slice(start, end + 1));
  return { groups, matches: hits.length, placed: false };
}

function placedGroups(lines: readonly string[], hits: readonly number[]): string[][] {
  if (!hits.length) return [];
  const tree = treeOf(lines);
  const groups: string[][] = [];
  // The top level needs saying only after some other place.
  let last = '';
  for (const hit of hits) {
    const place = placeOf(tree, hit);
    if (place !== last) groups.push([placeLine(place)]);
    else if (!groups.length) groups.push([]);
    groups.at(-1)!.push(lines[hit]!.trimStart());
    last = place;
  }
  return groups;
}

/** The url as read inside a wrapper that already names its origin: the rest of it. */
export function urlWithin(url: string, origin: string): string {
  return url.startsWith(origin) && url.length > origin.length ? url.slice(origin.length) : url;
}

/**
 * The find result as text, within `maxChars`, saying how many matches were left out. One header
 * line: the count, the page's title and its url without the origin, which the untrusted wrapper
 * around the result names. The query is the caller's own and is not echoed.
 */
export function formatFind(
  snapshot: Pick<SnapshotText, 'title' | 'url'>,
  found: Found,
  { maxChars = DEFAULT_MAX_CHARS, origin = '' }: { maxChars?: number; origin?: string } = {},
): string {
  const count = `${found.matches} matching line${found.matches === 1 ? '' : 's'}`;
  const head = `# ${count} · ${neutraliseText(snapshot.title)} · ${neutraliseText(urlWithin(snapshot.url, origin))}`;
  if (found.matches === 0) return `${head}\n# nothing matched; try a shorter text, another role, or read the snapshot`;
  const parts: string[] = [head];
  let used = head.length;
  let shown = 0;
  for (const group of found.groups) {
    const chunk = group.join('\n');
    if (used + chunk.length + 4 > maxChars - NOTE_ROOM) break;
    parts.push(shown && !found.placed ? `…\n${chunk}` : chunk);
    used += chunk.length + 4;
    shown++;
  }
  if (shown < found.groups.length)
    parts.push(`# … ${found.groups.length - shown} more groups not shown; narrow with a longer text or a role`);
  return parts.join('\n');
}
