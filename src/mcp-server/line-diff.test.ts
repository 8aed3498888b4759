import { describe, expect, it } from 'vitest';
import { diffLines } from './line-diff';

function lcsLength(a: readonly string[], b: readonly string[]): number {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i]![j] = a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  return table[0]![0]!;
}

function seeded(seed: number) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

describe('diffLines', () => {
  it('finds a shortest edit script that turns one list into the other', () => {
    const random = seeded(7);
    for (let round = 0; round < 300; round++) {
      const pick = () => Array.from({ length: Math.floor(random() * 12) }, () => 'abcd'[Math.floor(random() * 4)]!);
      const a = pick();
      const b = pick();
      const ops = diffLines(a, b)!;
      const rebuilt: string[] = [];
      let edits = 0;
      for (const op of ops) {
        if (op.kind === 'equal') {
          expect(a[op.a]).toBe(b[op.b]);
          rebuilt.push(a[op.a]!);
        } else if (op.kind === 'insert') {
          rebuilt.push(b[op.b]!);
          edits++;
        } else edits++;
      }
      expect(rebuilt).toEqual(b);
      expect(edits).toBe(a.length + b.length - 2 * lcsLength(a, b));
    }
  });

  it('gives up past the edit limit', () => {
    const a = Array.from({ length: 50 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 50 }, (_, i) => `b${i}`);
    expect(diffLines(a, b, 20)).toBeUndefined();
    expect(diffLines(a, b, 100)).toHaveLength(100);
  });

  it('handles empty lists', () => {
    expect(diffLines([], [])).toEqual([]);
    expect(diffLines([], ['x'])).toEqual([{ kind: 'insert', b: 0 }]);
    expect(diffLines(['x'], [])).toEqual([{ kind: 'delete', a: 0 }]);
  });
});
