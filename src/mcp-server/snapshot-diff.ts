/**
 * What changed between two snapshots of the same document, as the model reads it after an action:
 * added, removed and changed lines, each with its ref, and the nearest unchanged ancestors as
 * context so a line can be placed in the tree. Refs that do not appear are unchanged and stay
 * valid. Pure: strings in, strings out.
 */
import { neutraliseText } from '../shared/text/line';
import {
  headOfLine,
  indentOfLine,
  isTextLine,
  refOfLine,
  roleOfLine,
  TEXT_ROLE,
  withoutRef,
} from '../page/snapshot-line';
import { diffLines, MAX_EDITS, type Op } from './line-diff';

export interface SnapshotLines {
  title: string;
  url: string;
  lines: readonly string[];
}

export type DiffEntry =
  | { kind: 'context'; line: string }
  | { kind: 'added'; line: string }
  | { kind: 'removed'; line: string }
  | { kind: 'changed'; line: string; was: string };

export interface SnapshotDiff {
  added: number;
  removed: number;
  changed: number;
  url?: { from: string; to: string };
  title?: { from: string; to: string };
  entries: DiffEntry[];
}

/** How many unchanged ancestors are shown above each change. */
const CONTEXT_ANCESTORS = 2;

function shapeOf(line: string): string {
  return `${indentOfLine(line)}:${roleOfLine(line)}`;
}

/** Pairs removed and added lines that are the same element: by ref, else by shape within a hunk. */
function pairChanges(ops: Op[], before: readonly string[], after: readonly string[]): Map<number, number> {
  const pairs = new Map<number, number>(); // insert b → delete a
  const deletedByRef = new Map<string, number>();
  for (const op of ops) {
    if (op.kind !== 'delete') continue;
    const ref = refOfLine(before[op.a]!);
    if (ref) deletedByRef.set(ref, op.a);
  }
  const pairedDeletes = new Set<number>();
  for (const op of ops) {
    if (op.kind !== 'insert') continue;
    const ref = refOfLine(after[op.b]!);
    const a = ref ? deletedByRef.get(ref) : undefined;
    if (a !== undefined) {
      pairs.set(op.b, a);
      pairedDeletes.add(a);
    }
  }
  // Lines without refs (text, headings) pair up with a neighbour of the same shape in their hunk.
  let hunkDeletes: number[] = [];
  for (const op of [...ops, { kind: 'equal', a: -1, b: -1 } as Op]) {
    if (op.kind === 'equal') {
      hunkDeletes = [];
      continue;
    }
    if (op.kind === 'delete') {
      if (!pairedDeletes.has(op.a) && !refOfLine(before[op.a]!)) hunkDeletes.push(op.a);
      continue;
    }
    if (pairs.has(op.b) || refOfLine(after[op.b]!)) continue;
    const shape = shapeOf(after[op.b]!);
    const index = hunkDeletes.findIndex((a) => shapeOf(before[a]!) === shape);
    if (index >= 0) {
      const [a] = hunkDeletes.splice(index, 1);
      pairs.set(op.b, a!);
      pairedDeletes.add(a!);
    }
  }
  return pairs;
}

/** The unchanged ancestors (by indentation) of a position in the new snapshot, nearest last. */
function ancestorsAt(after: readonly string[], position: number, indent: number, unchanged: Set<number>): number[] {
  const found: number[] = [];
  let wanted = indent;
  for (let i = position - 1; i >= 0 && wanted > 0 && found.length < CONTEXT_ANCESTORS; i--) {
    const depth = indentOfLine(after[i]!);
    if (depth < wanted) {
      if (unchanged.has(i)) found.push(i);
      wanted = depth;
    }
  }
  return found.reverse();
}

/** The diff between two snapshots of one document, or undefined when they share too little. */
export function diffSnapshots(
  before: SnapshotLines,
  after: SnapshotLines,
  maxEdits = MAX_EDITS,
): SnapshotDiff | undefined {
  const ops = diffLines(before.lines, after.lines, maxEdits);
  if (!ops) return undefined;
  const pairs = pairChanges(ops, before.lines, after.lines);
  const pairedDeletes = new Set(pairs.values());
  const unchanged = new Set<number>();
  for (const op of ops) if (op.kind === 'equal') unchanged.add(op.b);

  const diff: SnapshotDiff = { added: 0, removed: 0, changed: 0, entries: [] };
  if (before.url !== after.url) diff.url = { from: before.url, to: after.url };
  if (before.title !== after.title) diff.title = { from: before.title, to: after.title };
  const shownContext = new Set<number>();
  let nextAfter = 0;
  let inHunk = false;
  for (const op of ops) {
    if (op.kind === 'equal') {
      nextAfter = op.b + 1;
      inHunk = false;
      continue;
    }
    if (op.kind === 'delete' && pairedDeletes.has(op.a)) continue;
    const line = op.kind === 'delete' ? before.lines[op.a]! : after.lines[op.b]!;
    if (!inHunk) {
      for (const i of ancestorsAt(after.lines, nextAfter, indentOfLine(line), unchanged)) {
        if (shownContext.has(i)) continue;
        shownContext.add(i);
        diff.entries.push({ kind: 'context', line: after.lines[i]! });
      }
      inHunk = true;
    }
    if (op.kind === 'delete') {
      diff.removed++;
      diff.entries.push({ kind: 'removed', line });
      continue;
    }
    nextAfter = op.b + 1;
    const was = pairs.get(op.b);
    if (was === undefined) {
      diff.added++;
      diff.entries.push({ kind: 'added', line });
    } else {
      diff.changed++;
      diff.entries.push({ kind: 'changed', line, was: before.lines[was]! });
    }
  }
  return diff;
}

interface LineStates {
  role: string;
  /** `"name"` as the line shows it, or '' when it shows none. */
  name: string;
  /** `[…]` marks after the name, the ref left out. */
  states: string[];
}

/** Names and values arrive neutralised (no brackets or quotes inside), so marks split cleanly. */
function statesOf(line: string): LineStates {
  const trimmed = line.trim();
  // A run of text (`- "…"`) is all name: it has no role word and no marks.
  if (isTextLine(trimmed)) return { role: TEXT_ROLE, name: trimmed.slice(2), states: [] };
  const head = headOfLine(trimmed);
  const role = roleOfLine(trimmed);
  const name = head.slice(`- ${role}`.length).trim();
  const states = (withoutRef(trimmed.slice(head.length)).match(/\[[^\]]*\]/g) ?? []).filter(
    (mark) => !mark.startsWith('[ref='),
  );
  return { role, name, states };
}

/** `[value="x"]` → `[value]`: the mark's key, for saying it was absent. */
const keyOf = (mark: string) => mark.replace(/=.*\]$/, ']');

/**
 * What a changed line used to say, as briefly as still makes sense: only the name and the marks
 * that differ (`was: "Clicked 0 times."`, `was: [expanded=false]`, `was: no [checked]`); the
 * whole old line when the role changed.
 */
export function describeWas(line: string, was: string): string {
  const now = line.trim();
  const then = was.trim();
  if (now === then) return 'moved';
  const after = statesOf(now);
  const before = statesOf(then);
  if (!after.role || after.role !== before.role) return `was: ${then}`;
  const parts: string[] = [];
  if (before.name !== after.name) parts.push(before.name || 'no name');
  const gone = before.states.filter((mark) => !after.states.includes(mark));
  parts.push(...gone);
  if (!parts.length) {
    const added = after.states.filter((mark) => !before.states.includes(mark));
    parts.push(`no ${added.map(keyOf).join(' ')}`);
  }
  return `was: ${parts.join(' ')}`;
}

export function isEmptyDiff(diff: SnapshotDiff): boolean {
  return diff.entries.length === 0 && !diff.url && !diff.title;
}

/**
 * The diff as text: `+` added, `-` removed, `~` changed, two spaces for context lines. Refs not
 * shown are unchanged; the format says that once (SPEC §4), not every answer.
 */
export function formatDiff(diff: SnapshotDiff, maxChars = 0): string {
  const counts = [
    diff.changed ? `${diff.changed} changed` : '',
    diff.added ? `${diff.added} added` : '',
    diff.removed ? `${diff.removed} removed` : '',
  ].filter(Boolean);
  const header: string[] = [];
  if (diff.url) header.push(`# url: ${neutraliseText(diff.url.from)} → ${neutraliseText(diff.url.to)}`);
  if (diff.title) header.push(`# title: ${neutraliseText(diff.title.to)}`);
  if (!counts.length) {
    header.push('# no changes since the previous snapshot');
    return header.join('\n');
  }
  header.push(`# changes: ${counts.join(', ')}`);
  const body = diff.entries.map((entry) => {
    switch (entry.kind) {
      case 'context':
        return `  ${entry.line}`;
      case 'added':
        return `+ ${entry.line}`;
      case 'removed':
        return `- ${entry.line}`;
      case 'changed':
        return `~ ${entry.line} (${describeWas(entry.line, entry.was)})`;
    }
  });
  const head = header.join('\n');
  let used = head.length;
  const kept: string[] = [];
  for (const line of body) {
    if (maxChars > 0 && used + line.length + 1 > maxChars) break;
    kept.push(line);
    used += line.length + 1;
  }
  const omitted = body.length - kept.length;
  const tail = omitted
    ? `\n# … ${omitted} more changed lines (budget ${maxChars} characters). Call snapshot, or find, to read the rest.`
    : '';
  return `${head}\n${kept.join('\n')}${tail}`;
}
