/**
 * Where a snapshot line sits, said in one short line instead of the ancestors themselves:
 * `# in dialog "Edit profile" › form › row 3`. `find` and diffs print it above the lines it
 * places. The place is the line's parent, then the nearest further ancestors that carry a name or
 * a role that names a region of the page (a landmark, dialog, form, table, list…), outermost first.
 * An unnamed parent among siblings of its role gets its position (`row 3`: the third row of its
 * parent), so rows that print alike are still told apart.
 *
 * The line cannot be forged by the page: it starts with `#` and no page line does; a name is the
 * name its line prints, already neutralised, so it sits between the only two `"` of its segment
 * and a ` › ` inside it is part of the name; a role is one word without spaces.
 */
import { headOfLine, indentOfLine, isCommentLine, nameOfLine, roleOfLine, TEXT_ROLE } from '../page/snapshot-line';

/** Roles that name a region of the page even without a name of their own. */
const PLACE_ROLES = new Set([
  'alertdialog',
  'banner',
  'complementary',
  'contentinfo',
  'dialog',
  'form',
  'grid',
  'list',
  'listbox',
  'main',
  'menu',
  'menubar',
  'navigation',
  'region',
  'search',
  'table',
  'tablist',
  'tabpanel',
  'toolbar',
  'tree',
  'treegrid',
]);

/** At most this many ancestors are named: the nearest ones say where a line is. */
const PLACE_DEPTH = 3;

export const PLACE_PREFIX = '# in ';
export const TOP_LEVEL = '# at the top level';

/** Each line's parent, its position among its parent's children of its role, and how many there are. */
export interface Tree {
  lines: readonly string[];
  parent: Int32Array;
  ordinal: Int32Array;
  siblings: Int32Array;
}

export function treeOf(lines: readonly string[]): Tree {
  const parent = new Int32Array(lines.length).fill(-1);
  const ordinal = new Int32Array(lines.length);
  const siblings = new Int32Array(lines.length);
  const stack: number[] = [];
  const counts = new Map<string, number>();
  const keys: string[] = [];
  lines.forEach((line, i) => {
    if (isCommentLine(line)) return;
    const depth = indentOfLine(line);
    while (stack.length && indentOfLine(lines[stack.at(-1)!]!) >= depth) stack.pop();
    parent[i] = stack.at(-1) ?? -1;
    const key = `${parent[i]}:${roleOfLine(line)}`;
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    ordinal[i] = n;
    keys[i] = key;
    stack.push(i);
  });
  keys.forEach((key, i) => (siblings[i] = counts.get(key) ?? 0));
  return { lines, parent, ordinal, siblings };
}

function segment(tree: Tree, i: number): string {
  const line = tree.lines[i]!;
  if (nameOfLine(line)) return headOfLine(line).slice(2);
  const role = roleOfLine(line);
  return tree.siblings[i]! > 1 ? `${role} ${tree.ordinal[i]}` : role;
}

function namesAPlace(line: string): boolean {
  const role = roleOfLine(line);
  return role !== TEXT_ROLE && (PLACE_ROLES.has(role) || nameOfLine(line) !== '');
}

/** The place of line `index`: its parent and named ancestors, outermost first; '' at the top level. */
export function placeOf(tree: Tree, index: number): string {
  const parts: string[] = [];
  let at = tree.parent[index]!;
  if (at >= 0) {
    parts.push(segment(tree, at));
    at = tree.parent[at]!;
  }
  for (; at >= 0 && parts.length < PLACE_DEPTH; at = tree.parent[at]!)
    if (namesAPlace(tree.lines[at]!)) parts.push(segment(tree, at));
  return parts.reverse().join(' › ');
}

/** The line printed above the lines a place holds. */
export function placeLine(place: string): string {
  return place ? `${PLACE_PREFIX}${place}` : TOP_LEVEL;
}

/** The segments of a place line, read as the format is written: ` › ` inside a name's quotes is the name's. */
export function segmentsOfPlace(line: string): string[] {
  if (!line.startsWith(PLACE_PREFIX)) return [];
  const segments: string[] = [];
  let current = '';
  let quoted = false;
  const text = line.slice(PLACE_PREFIX.length);
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') quoted = !quoted;
    if (!quoted && text.startsWith(' › ', i)) {
      segments.push(current);
      current = '';
      i += 2;
      continue;
    }
    current += char;
  }
  segments.push(current);
  return segments;
}

/** Lines printed under one place, outdented together so the shallowest is at the left margin. */
export function outdentRun(lines: readonly string[]): string[] {
  const least = Math.min(...lines.map(indentOfLine));
  return lines.map((line) => line.slice(least));
}
