/**
 * `@name` mentions of known agents: case-insensitive, several per message, the longest matching
 * name wins ("@Ann Lee" over "@Ann"), and never inside an e-mail address or a word.
 */

export interface Named {
  id: string;
  name: string;
}

/** Characters that, right before an `@`, make it part of a word or an address, not a mention. */
const WORDISH_BEFORE = /[\p{L}\p{N}_.+\-/\\]/u;
/** After the name a mention must end: a letter or digit would mean a longer, different word. */
const CONTINUES_NAME = /[\p{L}\p{N}_]/u;

export function findMentions<T extends Named>(text: string, agents: readonly T[]): T[] {
  const byLength = [...agents].sort((a, b) => b.name.length - a.name.length);
  const found: T[] = [];
  const lower = text.toLowerCase();
  for (let at = lower.indexOf('@'); at !== -1; at = lower.indexOf('@', at + 1)) {
    const before = at > 0 ? text[at - 1]! : '';
    if (before && WORDISH_BEFORE.test(before)) continue;
    const rest = lower.slice(at + 1);
    const agent = byLength.find((candidate) => {
      const name = candidate.name.toLowerCase();
      if (!name || !rest.startsWith(name)) return false;
      const after = text[at + 1 + name.length] ?? '';
      return !after || !CONTINUES_NAME.test(after);
    });
    if (agent && !found.includes(agent)) found.push(agent);
  }
  return found;
}
