/**
 * What an action's answer shows of the page afterwards: the diff against the snapshot taken before
 * when it is the same document (unless the diff would be longer than the page), else the whole
 * new page. The response builder calls this; nothing else decides it.
 */
import { foldRows } from '../page/snapshot-rows';
import { diffSnapshots, formatDiff } from './snapshot-diff';
import { DEFAULT_MAX_CHARS, formatSnapshot } from './snapshot-format';
import type { Snapshot } from './snapshot-service';
import { originOf } from './gates/origin';

export type PageChange = { kind: 'diff'; text: string } | { kind: 'page'; text: string; navigatedTo?: string };

export function describeChange(before: Snapshot | undefined, after: Snapshot): PageChange {
  // Compared as the model reads the page: a table row is one line (snapshot-rows.ts).
  const folded = foldRows(after.lines);
  const full = formatSnapshot(after, DEFAULT_MAX_CHARS, originOf(after.url), folded);
  if (before && before.documentId === after.documentId) {
    const diff = diffSnapshots({ ...before, lines: foldRows(before.lines) }, { ...after, lines: folded });
    const text = diff && formatDiff(diff, DEFAULT_MAX_CHARS);
    // A diff longer than the whole page reads worse than the page itself.
    if (text && text.length <= full.length) return { kind: 'diff', text };
  }
  const navigated = before !== undefined && before.documentId !== after.documentId;
  return navigated ? { kind: 'page', text: full, navigatedTo: after.url } : { kind: 'page', text: full };
}
