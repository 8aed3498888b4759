/**
 * What changed between two snapshots of the same document, as the model reads it after an action:
 * added, removed and changed lines, each with its ref, under a `# in …` line that says where they
 * are (line-place.ts) instead of the unchanged ancestors themselves. Lines redrawn as they were
 * with new refs are told as one mapping of old refs to new. Refs that do not appear are unchanged
 * and stay valid. Pure: strings in, strings out.
 */
import { neutraliseText } from '../shared/text/line';
import {
  headOfLine,
  indentOfLine,
  isRefMark,
  isTextLine,
  nameOfLine,
  refOfLine,
  refsOfLine,
  roleOfLine,
  TEXT_ROLE,
  withoutRef,
  withoutRefs,
} from '../page/snapshot-line';
import { isFoldedRow, itemsOfRow, ITEM_SEPARATOR } from '../page/snapshot-rows';
import { diffLines, MAX_EDITS, type Op } from './line-diff';
import { outdentRun, placeLine, placeOf, treeOf, type Tree } from './line-place';

export interface SnapshotLines {
  title: string;
  url: string;
  lines: readonly string[];
}

export type DiffEntry =
  | { kind: 'place'; line: string }
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
  /** Lines redrawn exactly as they were but with new refs: old ref → new ref, in page order. */
  newRefs: [string, string][];
  /** How many lines those refs are on: a table row on one line has one per cell. */
  redrawn: number;
  /** Removed lines told by their refs alone (see BULK_REMOVED), and how many lines those are. */
  removedRefs: string[];
  removedQuiet: number;
}

/**
 * Past this many removed lines, the ones with a ref or without a name are counted, not printed:
 * the agent read each such line with its ref, so the ref says which went. One or two are printed,
 * which costs about what counting them does.
 */
const BULK_REMOVED = 2;
/** Past this many changed lines, a changed name is not followed by the old one: the page's new content is the news. */
const BULK_CHANGED = 5;

function shapeOf(line: string): string {
  return `${indentOfLine(line)}:${roleOfLine(line)}`;
}

/** The runs of non-equal ops between equal ones. */
function hunksOf(ops: readonly Op[]): Op[][] {
  const hunks: Op[][] = [];
  let current: Op[] = [];
  for (const op of ops) {
    if (op.kind === 'equal') {
      if (current.length) hunks.push(current);
      current = [];
    } else current.push(op);
  }
  if (current.length) hunks.push(current);
  return hunks;
}

/**
 * Pairs removed and added lines that are the same element: by ref anywhere; then, within a hunk,
 * a line redrawn with a new ref and nothing else changed; then lines without refs (text,
 * headings) with a neighbour of the same shape.
 */
function pairChanges(
  ops: Op[],
  trees: { before: Tree; after: Tree },
): { pairs: Map<number, number>; rerefs: Map<number, number> } {
  const before = trees.before.lines;
  const after = trees.after.lines;
  const pairs = new Map<number, number>(); // insert b → delete a
  const rerefs = new Map<number, number>();
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
  for (const hunk of hunksOf(ops)) {
    // A part of the page its script redrew: as many lines with refs in one place as before, each with a
    // new ref, taken in order; a line that prints as before but its ref is redrawn, one of the same
    // kind that prints otherwise changed.
    const gone = new Map<string, number[]>();
    const drawn = new Map<string, number[]>();
    for (const op of hunk) {
      if (op.kind === 'delete' && !pairedDeletes.has(op.a) && refOfLine(before[op.a]!)) {
        const place = placeOf(trees.before, op.a);
        gone.set(place, [...(gone.get(place) ?? []), op.a]);
      } else if (op.kind === 'insert' && !pairs.has(op.b) && refOfLine(after[op.b]!)) {
        const place = placeOf(trees.after, op.b);
        drawn.set(place, [...(drawn.get(place) ?? []), op.b]);
      }
    }
    for (const [place, as] of gone) {
      const bs = drawn.get(place) ?? [];
      if (as.length !== bs.length) continue;
      as.forEach((a, i) => {
        const b = bs[i]!;
        if (withoutRefs(before[a]!) === withoutRefs(after[b]!)) rerefs.set(b, a);
        else if (shapeOf(before[a]!) === shapeOf(after[b]!)) pairs.set(b, a);
        else return;
        pairedDeletes.add(a);
      });
    }
    // Lines without refs (text, headings) pair up with a neighbour of the same shape in their hunk.
    const hunkDeletes: number[] = [];
    for (const op of hunk) {
      if (op.kind === 'delete') {
        if (!pairedDeletes.has(op.a) && !refOfLine(before[op.a]!)) hunkDeletes.push(op.a);
        continue;
      }
      if (op.kind !== 'insert' || pairs.has(op.b) || rerefs.has(op.b) || refOfLine(after[op.b]!)) continue;
      const shape = shapeOf(after[op.b]!);
      const index = hunkDeletes.findIndex((a) => shapeOf(before[a]!) === shape);
      if (index >= 0) {
        const [a] = hunkDeletes.splice(index, 1);
        pairs.set(op.b, a!);
        pairedDeletes.add(a!);
      }
    }
  }
  return { pairs, rerefs };
}

/** A removed line that says nothing once its ref is counted: it has a ref, or no name. */
const quietWhenRemoved = (line: string) => !!refOfLine(line) || !nameOfLine(line);

/** The diff between two snapshots of one document, or undefined when they share too little. */
export function diffSnapshots(
  before: SnapshotLines,
  after: SnapshotLines,
  maxEdits = MAX_EDITS,
): SnapshotDiff | undefined {
  const ops = diffLines(before.lines, after.lines, maxEdits);
  if (!ops) return undefined;
  const trees = { before: treeOf(before.lines), after: treeOf(after.lines) };
  const { pairs, rerefs } = pairChanges(ops, trees);
  const pairedDeletes = new Set([...pairs.values(), ...rerefs.values()]);
  const diff: SnapshotDiff = {
    added: 0,
    removed: 0,
    changed: 0,
    entries: [],
    newRefs: [],
    redrawn: 0,
    removedRefs: [],
    removedQuiet: 0,
  };
  if (before.url !== after.url) diff.url = { from: before.url, to: after.url };
  if (before.title !== after.title) diff.title = { from: before.title, to: after.title };

  const removedLines = ops.filter((op) => op.kind === 'delete' && !pairedDeletes.has(op.a)).length;
  const bulkRemoved = removedLines > BULK_REMOVED;
  // The top level needs saying only after some other place.
  let lastPlace = '';
  for (const hunk of hunksOf(ops)) {
    // The lines this hunk prints, each with where it is; a line under the one before it needs no place of its own.
    let run: { lines: DiffEntry[]; place: string; depth: number } | undefined;
    const flush = () => {
      if (!run) return;
      if (run.place !== lastPlace) diff.entries.push({ kind: 'place', line: placeLine(run.place) });
      lastPlace = run.place;
      const outdented = outdentRun(run.lines.map((entry) => entry.line));
      run.lines.forEach((entry, i) => diff.entries.push({ ...entry, line: outdented[i]! }));
      run = undefined;
    };
    for (const op of hunk) {
      let entry: DiffEntry;
      let place: () => string;
      if (op.kind === 'delete') {
        if (pairedDeletes.has(op.a)) continue;
        const line = before.lines[op.a]!;
        diff.removed++;
        if (bulkRemoved && quietWhenRemoved(line)) {
          diff.removedRefs.push(...refsOfLine(line));
          diff.removedQuiet++;
          continue;
        }
        entry = { kind: 'removed', line };
        place = () => placeOf(trees.before, op.a);
      } else if (op.kind === 'insert') {
        const line = after.lines[op.b]!;
        const redrawn = rerefs.get(op.b);
        if (redrawn !== undefined) {
          const was = refsOfLine(before.lines[redrawn]!);
          refsOfLine(line).forEach((ref, i) => diff.newRefs.push([was[i]!, ref]));
          diff.redrawn++;
          continue;
        }
        const was = pairs.get(op.b);
        if (was === undefined) {
          diff.added++;
          entry = { kind: 'added', line };
        } else {
          diff.changed++;
          entry = { kind: 'changed', line, was: before.lines[was]! };
        }
        place = () => placeOf(trees.after, op.b);
      } else continue;
      const depth = indentOfLine(entry.line);
      if (run && depth >= run.depth) run.lines.push(entry);
      else {
        flush();
        run = { lines: [entry], place: place(), depth };
      }
    }
    flush();
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
  const states = (withoutRef(trimmed.slice(head.length)).match(/\[[^\]]*\]/g) ?? []).filter((mark) => !isRefMark(mark));
  return { role, name, states };
}

/** `[value="x"]` → `[value]`: the mark's key, for saying it was absent. */
const keyOf = (mark: string) => mark.replace(/=.*\]$/, ']');

/**
 * What a changed line used to say, as briefly as still makes sense: only the name and the marks
 * that differ (`was: "Clicked 0 times."`, `was: [expanded=false]`, `was: no [checked]`); the
 * whole old line when the role changed. Without `names`, an old name is left out, and a line whose
 * name alone changed gets ''.
 */
export function describeWas(line: string, was: string, names = true): string {
  const now = line.trim();
  const then = was.trim();
  if (now === then) return 'moved';
  // A row on one line: its items are its news; the old ones are told only when few lines changed.
  if (isFoldedRow(now) && isFoldedRow(then)) {
    const items = new Set(itemsOfRow(now).map((item) => item.text));
    const gone = itemsOfRow(then).filter((item) => !items.has(item.text));
    return names && gone.length ? `was: ${gone.map((item) => item.text).join(ITEM_SEPARATOR)}` : '';
  }
  if (isFoldedRow(now) || isFoldedRow(then)) return names ? `was: ${then}` : '';
  const after = statesOf(now);
  const before = statesOf(then);
  if (!after.role || after.role !== before.role) return `was: ${then}`;
  const parts: string[] = [];
  if (before.name !== after.name && names) parts.push(before.name || 'no name');
  const gone = before.states.filter((mark) => !after.states.includes(mark));
  parts.push(...gone);
  if (!parts.length && before.name !== after.name) return '';
  if (!parts.length) {
    const added = after.states.filter((mark) => !before.states.includes(mark));
    parts.push(`no ${added.map(keyOf).join(' ')}`);
  }
  return `was: ${parts.join(' ')}`;
}

export function isEmptyDiff(diff: SnapshotDiff): boolean {
  return diff.entries.length === 0 && !diff.newRefs.length && !diff.removedQuiet && !diff.url && !diff.title;
}

/** `e7 e8 e9` → `e7–e9`: runs of consecutive refs of one document. */
function refRuns(refs: readonly string[]): string[] {
  const runs: string[] = [];
  let first = '';
  let last = '';
  let lastNumber = NaN;
  let prefix = '';
  for (const ref of refs) {
    const [, p = '', n = ''] = /^(.*?)(\d+)$/.exec(ref) ?? [];
    if (first && p === prefix && Number(n) === lastNumber + 1) {
      last = ref;
      lastNumber++;
      continue;
    }
    if (first) runs.push(first === last ? first : `${first}–${last}`);
    first = last = ref;
    prefix = p;
    lastNumber = n ? Number(n) : NaN;
  }
  if (first) runs.push(first === last ? first : `${first}–${last}`);
  return runs;
}

/** `e7→e17, e8→e18` → `e7–e8 → e17–e18`: mapped runs kept together while both sides run on. */
function refMapping(pairs: readonly [string, string][]): string {
  const parts: string[] = [];
  let from: string[] = [];
  let to: string[] = [];
  const flush = () => {
    if (from.length) parts.push(`${refRuns(from)[0]} → ${refRuns(to)[0]}`);
    from = [];
    to = [];
  };
  for (const [a, b] of pairs) {
    const next = [...from, a];
    const nextTo = [...to, b];
    if (from.length && (refRuns(next).length > 1 || refRuns(nextTo).length > 1)) flush();
    from.push(a);
    to.push(b);
  }
  flush();
  return parts.join(', ');
}

/**
 * The diff as text: at most one header line (a url or title change, or that nothing changed), then
 * `# in …` place lines and the lines they hold: `+` added, `-` removed, `~` changed. Refs not
 * shown are unchanged; the format says that once (SPEC §4), not every answer.
 */
export function formatDiff(diff: SnapshotDiff, maxChars = 0): string {
  const header: string[] = [];
  if (diff.url) header.push(`url: ${neutraliseText(diff.url.from)} → ${neutraliseText(diff.url.to)}`);
  if (diff.title) header.push(`title: ${neutraliseText(diff.title.to)}`);
  const changed = diff.entries.length || diff.newRefs.length || diff.removedQuiet;
  if (!changed && !header.length) header.push('no changes since the previous snapshot');
  const head = header.length ? [`# ${header.join(' · ')}`] : [];
  const body = diff.entries.map((entry) => {
    switch (entry.kind) {
      case 'place':
        return entry.line;
      case 'added':
        return `+ ${entry.line}`;
      case 'removed':
        return `- ${entry.line}`;
      case 'changed': {
        const was = describeWas(entry.line, entry.was, diff.changed <= BULK_CHANGED);
        return was ? `~ ${entry.line} (${was})` : `~ ${entry.line}`;
      }
    }
  });
  if (diff.removedQuiet) {
    const refs = diff.removedRefs.length ? `, refs ${refRuns(diff.removedRefs).join(', ')}` : '';
    const more = diff.removed > diff.removedQuiet ? ' more' : '';
    body.push(`# ${diff.removedQuiet}${more} lines removed${refs}`);
  }
  if (diff.newRefs.length)
    body.push(
      `# ${diff.redrawn} ${diff.redrawn === 1 ? 'line redrawn as it was' : 'lines redrawn as they were'}, new refs: ${refMapping(diff.newRefs)}`,
    );
  let used = head.join('\n').length;
  const kept: string[] = [...head];
  for (const line of body) {
    if (maxChars > 0 && used + line.length + 1 > maxChars) break;
    kept.push(line);
    used += line.length + 1;
  }
  const omitted = body.length + head.length - kept.length;
  if (omitted)
    kept.push(
      `# … ${omitted} more changed lines (budget ${maxChars} characters). Call snapshot, or find, to read the rest.`,
    );
  return kept.join('\n');
}
