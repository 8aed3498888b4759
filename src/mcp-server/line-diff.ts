/**
 * The shortest edit script between two lists of lines (Myers' O(ND) algorithm, with the common
 * head and tail trimmed first), bounded so two unrelated pages do not cost quadratic time.
 */

export type Op =
  { kind: 'equal'; a: number; b: number } | { kind: 'delete'; a: number } | { kind: 'insert'; b: number };

/** Beyond this many line edits the pages have little in common; a full snapshot says it better. */
export const MAX_EDITS = 4_000;

/**
 * The shortest edit script between two line lists (Myers' O(ND) algorithm), or undefined when it
 * needs more than `maxEdits` insertions and deletions.
 */
export function diffLines(a: readonly string[], b: readonly string[], maxEdits = MAX_EDITS): Op[] | undefined {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const n = endA - start;
  const m = endB - start;
  const middle = middleScript(n, m, (x, y) => a[start + x] === b[start + y], maxEdits);
  if (!middle) return undefined;
  const ops: Op[] = [];
  for (let i = 0; i < start; i++) ops.push({ kind: 'equal', a: i, b: i });
  for (const op of middle) {
    if (op.kind === 'equal') ops.push({ kind: 'equal', a: op.a + start, b: op.b + start });
    else if (op.kind === 'delete') ops.push({ kind: 'delete', a: op.a + start });
    else ops.push({ kind: 'insert', b: op.b + start });
  }
  for (let i = 0; endA + i < a.length; i++) ops.push({ kind: 'equal', a: endA + i, b: endB + i });
  return ops;
}

function middleScript(n: number, m: number, same: (x: number, y: number) => boolean, maxEdits: number) {
  const max = n + m;
  if (max === 0) return [] as Op[];
  const limit = Math.min(max, maxEdits);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  // trace[d] holds v for k in [-d, d] after round d, for walking back.
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= limit && found < 0; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && same(x, y)) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
    trace.push(v.slice(offset - d, offset + d + 1));
  }
  if (found < 0) return undefined;
  const reversed: Op[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    const previous = trace[d - 1]!;
    const at = (k: number) => previous[k + d - 1]!;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const previousK = down ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    while (x > previousX && y > previousY) reversed.push({ kind: 'equal', a: --x, b: --y });
    if (down) reversed.push({ kind: 'insert', b: y - 1 });
    else reversed.push({ kind: 'delete', a: x - 1 });
    x = previousX;
    y = previousY;
  }
  while (x > 0 && y > 0) reversed.push({ kind: 'equal', a: --x, b: --y });
  return reversed.reverse();
}
