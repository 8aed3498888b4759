/**
 * What one contender's agent has read so far in a task, and whether a target is in it. A step may
 * act on a target only when its line was in an earlier answer on the same side: an agent cannot
 * name what it has not seen. The text is read as it arrives, whichever shape it has: a whole
 * snapshot, a find answer (matched lines, maybe with context or a place after them), or a diff
 * after an action (`+` added, `~` changed with `(was: …)` or `(moved)` after it, `-` removed,
 * context lines indented). Both contenders' line shapes are understood: `- role "name" [ref=…]`,
 * and Playwright MCP's element named by its own text, `- role [ref=…] [cursor=pointer]: name`, or
 * with that text as its first child when it holds more (`- role [ref=…]:` then `  - text: name`).
 */
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

/** Every line of `text` that shows `target`, in order. */
export function sightingsIn(text: string, target: Target): Sighting[] {
  const { quoted, afterColon, parent, firstText } = patterns(target);
  const found: Sighting[] = [];
  let holder: RegExpExecArray | null = null;
  for (const raw of text.split('\n')) {
    const { line, removed } = unmark(raw);
    const above = holder;
    holder = parent.exec(line);
    const own = above && firstText.exec(line);
    if (above && own && own[1] === `${above[1]}  `) {
      found.push({ role: above[2]!, name: own[3]!, ref: above[3]!, removed });
      continue;
    }
    const named = quoted.exec(line);
    if (named) {
      const ref = /\[ref=([^\]\s]+)\]/.exec(named[3]!)?.[1];
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
      if (present) return { ...present, linked: read.linked };
      if (sightings.length || read.whole) return undefined;
    }
    return undefined;
  }
}
