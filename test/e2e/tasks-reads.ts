/**
 * What one contender's agent has read so far in a task, and whether a target is in it. A step may
 * act on a target only when its line was in an earlier answer on the same side: an agent cannot
 * name what it has not seen. The text is read as it arrives, whichever shape it has: a whole
 * snapshot, a find answer (matched lines, maybe with context or a place after them), or a diff
 * after an action (`+` added, `~` changed with `(was: …)` or `(moved)` after it, `-` removed,
 * context lines indented; Tabwright's `# N lines redrawn as they were, new refs: e1–e3 → e7–e9`
 * moves refs and `# N lines removed, refs e4–e6` removes them). Both contenders' line shapes are understood: `- role "name" [e4]`
 * (Playwright MCP: `[ref=e4]`), Tabwright's table row on one line (`- row: "PO-1" [e4] | "Acme" [e5]`,
 * snapshot-rows.ts),
 * and Playwright MCP's element named by its own text, `- role [ref=…] [cursor=pointer]: name`, or
 * with that text as its first child when it holds more (`- role [ref=…]:` then `  - text: name`).
 */
import { isFoldedRow, itemsOfRow, PLAIN_CELL_ROLES } from '../../src/page/snapshot-rows';
import type { Target } from './tasks-plan';

/** One line that shows a target. */
export interface Sighting {
  /** The role as the line prints it (one of the target's). */
  role: string;
  /** The name as the line prints it: whole, also when the target gives only its start. */
  name: string;
  /** Absent when the line prints none. */
  ref?: string;
  /** The line is a diff's removed line: the element has left the page. */
  removed: boolean;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function patterns(target: Target) {
  const roles = [target.role].flat().map(escape).join('|');
  const name = escape(target.name) + (target.prefix ? '[^"]*' : '');
  return {
    // `- role "name"`, then anything (refs, states, a place); the name is whole unless a prefix.
    quoted: new RegExp(`^\\s*- (${roles}) "(${name})"(?=[\\s:\\[]|$)(.*)$`),
    // Playwright MCP's element named by its own text, after the colon (quoted when YAML needs it).
    afterColon: new RegExp(`^\\s*- (${roles}) \\[ref=([^\\]\\s]+)\\](?: \\[[^\\]]*\\])*: ("?)(${name})\\3\\s*$`),
    // …or holding more than its text, which then comes first among its children.
    parent: new RegExp(`^(\\s*)- (${roles}) \\[ref=([^\\]\\s]+)\\](?: \\[[^\\]]*\\])*:\\s*$`),
    firstText: new RegExp(`^(\\s*)- text: ("?)(${name})\\2\\s*$`),
  };
}

/** A diff's marker taken off a line: what the line says, and whether it was removed. */
function unmark(raw: string): { line: string; removed: boolean } {
  const marked = /^([+~]) (.*)$/.exec(raw);
  if (marked) {
    // What a changed line used to be is not on the page any more.
    const line = marked[1] === '~' ? marked[2]!.replace(/ \((?:was: .*|moved)\)\s*$/, '') : marked[2]!;
    return { line, removed: false };
  }
  // A removed line is `- ` before the line, which itself starts (after its indent) with `- `.
  const removed = /^-\s+(- .*)$/.exec(raw);
  if (removed) return { line: removed[1]!, removed: true };
  return { line: raw, removed: false };
}

/**
 * The role a plain cell has below `line`, when the line opens a table or a grid (`- grid "Orders"`)
 * or places what follows in one (`# in grid "Orders"`); names left out, as they may say anything.
 */
function plainCellRoleAfter(line: string): string | undefined {
  const bare = line.replace(/"[^"]*"/g, '');
  const opened = /^\s*- (grid|treegrid|table)\b/.exec(bare)?.[1];
  const placed = bare.startsWith('# in ') ? bare.match(/\b(?:grid|treegrid|table)\b/g)?.at(-1) : undefined;
  const container = opened ?? placed;
  return container && (container === 'table' ? 'cell' : 'gridcell');
}

/** The items of a table row Tabwright printed on one line that show `target`. */
function rowItemSightings(line: string, target: Target, removed: boolean, plainRole: string | undefined): Sighting[] {
  const roles = [target.role].flat();
  const name = new RegExp(`^${escape(target.name)}${target.prefix ? '' : '$'}`);
  return itemsOfRow(line).flatMap((item) => {
    // A plain cell prints no role: it is a `cell` in a table, a `gridcell` in a grid.
    const role = item.role || plainRole || roles.find((wanted) => PLAIN_CELL_ROLES.includes(wanted));
    if (!role || !roles.includes(role) || !name.test(item.name)) return [];
    return [{ role, name: item.name, ...(item.ref ? { ref: item.ref } : {}), removed }];
  });
}

/** Every line of `text` that shows `target`, in order. */
export function sightingsIn(text: string, target: Target): Sighting[] {
  const { quoted, afterColon, parent, firstText } = patterns(target);
  const found: Sighting[] = [];
  let holder: RegExpExecArray | null = null;
  let plainRole: string | undefined;
  for (const raw of text.split('\n')) {
    const { line, removed } = unmark(raw);
    plainRole = plainCellRoleAfter(line) ?? plainRole;
    if (isFoldedRow(line)) {
      found.push(...rowItemSightings(line, target, removed, plainRole));
      holder = null;
      continue;
    }
    const above = holder;
    holder = parent.exec(line);
    const own = above && firstText.exec(line);
    if (above && own && own[1] === `${above[1]}  `) {
      found.push({ role: above[2]!, name: own[3]!, ref: above[3]!, removed });
      continue;
    }
    const named = quoted.exec(line);
    if (named) {
      // Tabwright prints a ref as `[e4]`, Playwright MCP as `[ref=e4]`.
      const ref = /\[(?:ref=)?((?:f\d+)?e\d+)\]/.exec(named[3]!)?.[1];
      found.push({ role: named[1]!, name: named[2]!, ...(ref ? { ref } : {}), removed });
      continue;
    }
    const colon = afterColon.exec(line);
    if (colon) found.push({ role: colon[1]!, name: colon[4]!, ref: colon[2]!, removed });
  }
  return found;
}

export interface Read {
  text: string;
  /** A whole page (a snapshot, or a snapshot file an answer links to): what it lacks is not there. */
  whole: boolean;
  /** Read in a file an answer linked to, not in the answer itself. */
  linked: boolean;
}

/** Where a target was last seen: the line, and whether it was only in a linked file. */
export interface Seen extends Sighting {
  linked: boolean;
}

/** Everything one side has read in a task, newest last. */
export class Reads {
  readonly #reads: Read[] = [];

  add(read: Read): void {
    this.#reads.push(read);
  }

  /**
   * The newest line that shows `target` and is still on the page, if any. The newest read that
   * mentions the target decides: a diff that only removed it, or a whole page without it, means
   * it is gone, whatever older reads showed.
   */
  find(target: Target): Seen | undefined {
    for (let i = this.#reads.length - 1; i >= 0; i--) {
      const read = this.#reads[i]!;
      const sightings = sightingsIn(read.text, target);
      const present = sightings.find((sighting) => !sighting.removed);
      if (present) return this.#since(i, { ...present, linked: read.linked });
      if (sightings.length || read.whole) return undefined;
    }
    return undefined;
  }

  /** A line seen in read `index` as the reads after it left its ref: moved to a new ref, or removed. */
  #since(index: number, seen: Seen): Seen | undefined {
    if (!seen.ref) return seen;
    let ref = seen.ref;
    for (const read of this.#reads.slice(index + 1)) {
      const refs = refChanges(read.text);
      if (refs.removed.has(ref)) return undefined;
      ref = refs.moved.get(ref) ?? ref;
    }
    return { ...seen, ref };
  }
}

/** `e7–e9` → e7, e8, e9. */
function expand(run: string): string[] {
  const [first, last = first] = run.split('–') as [string, string?];
  const [, prefix = '', from = ''] = /^(.*?)(\d+)$/.exec(first) ?? [];
  const to = /(\d+)$/.exec(last!)?.[1];
  if (!from || !to) return [first];
  return Array.from({ length: Number(to) - Number(from) + 1 }, (_, i) => `${prefix}${Number(from) + i}`);
}

/** The refs a Tabwright diff moved (`# … redrawn …, new refs: a → b, …`) or counted removed. */
function refChanges(text: string): { moved: Map<string, string>; removed: Set<string> } {
  const moved = new Map<string, string>();
  const removed = new Set<string>();
  for (const line of text.split('\n')) {
    const redrawn = /^# \d+ lines? redrawn as (?:it was|they were), new refs: (.*)$/.exec(line);
    for (const pair of redrawn?.[1]!.split(', ') ?? []) {
      const [from, to] = pair.split(' → ').map(expand) as [string[], string[]];
      from.forEach((ref, i) => moved.set(ref, to[i]!));
    }
    const gone = /^# \d+(?: more)? lines removed, refs (.*)$/.exec(line);
    for (const run of gone?.[1]!.split(', ') ?? []) for (const ref of expand(run)) removed.add(ref);
  }
  return { moved, removed };
}
