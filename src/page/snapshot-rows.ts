/**
 * A table row on one line. Tables are where snapshots grow: a row of three cells took four lines,
 * each repeating its indent and the word `gridcell`. A row whose lines are all single element
 * lines one level in (cells, and the links or buttons a cell handed its place to) is printed as
 * `- row: "PO-1001" [e4] | "Acme" [e5] | columnheader "Total" | button "Edit" [e6]`:
 * every item keeps its name, ref and states; a plain cell (`cell` in a table, `gridcell` in a grid)
 * drops its role word, any other item keeps it. A row holding text, or anything nested deeper,
 * stays as it was. Names arrive neutralised (no quote or bracket inside), so page text cannot
 * forge an item or a separator. The page's own lines are not changed: `find` and lookups by role
 * and name read them as they are; only what the model reads as a page, or a change to one, is
 * folded (snapshot-format.ts, page-report.ts).
 */
import { indentOfLine, isCommentLine, isRefMark, isTextLine, roleOfLine } from './snapshot-line';

/** The roles a folded row prints without their role word. */
export const PLAIN_CELL_ROLES: readonly string[] = ['cell', 'gridcell'];
const PLAIN = new Set(PLAIN_CELL_ROLES);
const ROW = 'row';
export const ITEM_SEPARATOR = ' | ';
const FOLDED = /^\s*- row\b[^"]*?(?: "[^"]*")?[^"]*?: /;

/** Whether a line is a row already folded onto one line. */
export function isFoldedRow(line: string): boolean {
  return roleOfLine(line) === ROW && FOLDED.test(line);
}

/** An item as a folded row prints it: the line without its indent and `- `, a plain cell without its role. */
function itemOf(line: string): string {
  const body = line.trimStart().slice(2);
  const role = roleOfLine(line);
  if (!PLAIN.has(role)) return body;
  const rest = body.slice(role.length).trimStart();
  return rest.startsWith('"') ? rest : `""${rest ? ` ${rest}` : ''}`;
}

/** The lines with every row whose items are single element lines printed on one line. */
export function foldRows(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (roleOfLine(line) !== ROW || isFoldedRow(line)) {
      out.push(line);
      continue;
    }
    const depth = indentOfLine(line);
    let end = i + 1;
    let foldable = true;
    for (; end < lines.length && indentOfLine(lines[end]!) > depth; end++) {
      const item = lines[end]!;
      if (indentOfLine(item) !== depth + 2 || isTextLine(item) || isCommentLine(item) || !roleOfLine(item)) {
        foldable = false;
      }
    }
    if (!foldable || end === i + 1) {
      out.push(line);
      continue;
    }
    out.push(
      `${line}: ${lines
        .slice(i + 1, end)
        .map(itemOf)
        .join(ITEM_SEPARATOR)}`,
    );
    i = end - 1;
  }
  return out;
}

export interface RowItem {
  /** '' for a plain cell: `cell` in a table, `gridcell` in a grid (PLAIN_CELL_ROLES). */
  role: string;
  name: string;
  ref?: string;
  /** The marks after the name, ref left out: `[selected]`, `[value="3"]`. */
  states: string[];
  /** The item as the row prints it. */
  text: string;
}

const ITEM = /^(?:([^\s"[:]+)(?: |$))?(?:"([^"]*)")?((?: ?\[[^\]]*\])*)$/;

/** The items of a folded row, in order; [] for any other line. */
export function itemsOfRow(line: string): RowItem[] {
  const head = roleOfLine(line) === ROW ? FOLDED.exec(line) : null;
  if (!head) return [];
  const items: RowItem[] = [];
  let quoted = false;
  let from = head[0].length;
  // Separators inside a name are the page's text: names hold no quote, so quotes tell them apart.
  for (let i = from; i <= line.length; i++) {
    if (i < line.length && line[i] === '"') quoted = !quoted;
    if (i === line.length || (!quoted && line.startsWith(ITEM_SEPARATOR, i))) {
      const text = line.slice(from, i).trim();
      const match = ITEM.exec(text);
      if (match) {
        const marks = match[3]!.match(/\[[^\]]*\]/g) ?? [];
        const ref = marks.find(isRefMark)?.slice(1, -1);
        items.push({
          role: match[1] ?? '',
          name: match[2] ?? '',
          ...(ref ? { ref } : {}),
          states: marks.filter((mark) => !isRefMark(mark)),
          text,
        });
      }
      from = i + ITEM_SEPARATOR.length;
      i = from - 1;
    }
  }
  return items;
}
