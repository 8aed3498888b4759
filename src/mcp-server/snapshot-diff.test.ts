import { describe, expect, it } from 'vitest';
import { describeWas, diffLines, diffSnapshots, formatDiff, isEmptyDiff, type SnapshotLines } from './snapshot-diff';

const snap = (lines: string[], url = 'http://127.0.0.1/a', title = 'Page'): SnapshotLines => ({ title, url, lines });

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

describe('diffSnapshots', () => {
  const page = [
    '- heading "Shop" [level=1]',
    '- main',
    '  - button "Count" [ref=e1]',
    '  - paragraph',
    '    - text "Clicked 0 times."',
    '  - textbox "Your name" [ref=e2]',
    '  - link "Second page" [ref=e3]',
  ];

  it('reports no change for identical snapshots', () => {
    const diff = diffSnapshots(snap(page), snap(page))!;
    expect(isEmptyDiff(diff)).toBe(true);
    expect(formatDiff(diff)).toMatch(/no change/);
  });

  it('pairs a changed text line with its old version and shows its ancestors as context', () => {
    const after = [...page];
    after[4] = '    - text "Clicked 1 times."';
    const diff = diffSnapshots(snap(page), snap(after))!;
    expect(diff).toMatchObject({ changed: 1, added: 0, removed: 0 });
    expect(diff.entries).toEqual([
      { kind: 'context', line: '- main' },
      { kind: 'context', line: '  - paragraph' },
      { kind: 'changed', line: '    - text "Clicked 1 times."', was: '    - text "Clicked 0 times."' },
    ]);
    expect(formatDiff(diff)).toBe(
      [
        '# changes since the previous snapshot: 1 changed; refs not shown are unchanged',
        '  - main',
        '    - paragraph',
        '~     - text "Clicked 1 times."  (was: - text "Clicked 0 times.")',
      ].join('\n'),
    );
  });

  it('pairs lines by ref and says which states changed', () => {
    const after = [...page];
    after[5] = '  - textbox "Your name" [ref=e2] [value="Ada"]';
    const diff = diffSnapshots(snap(page), snap(after))!;
    expect(diff.changed).toBe(1);
    expect(formatDiff(diff)).toContain('~   - textbox "Your name" [ref=e2] [value="Ada"]  (was: no states)');
  });

  it('lists added and removed lines with their refs', () => {
    const after = [...page.slice(0, 6), '  - dialog "Saved"', '    - button "OK" [ref=e9]', page[6]!];
    after.splice(2, 1);
    const diff = diffSnapshots(snap(page), snap(after))!;
    expect(diff).toMatchObject({ added: 2, removed: 1, changed: 0 });
    const text = formatDiff(diff);
    expect(text).toContain('-   - button "Count" [ref=e1]');
    expect(text).toContain('+   - dialog "Saved"');
    expect(text).toContain('+     - button "OK" [ref=e9]');
    expect(text).not.toContain('e3');
  });

  it('recognises an element that moved as the same ref', () => {
    const after = [page[0]!, page[1]!, page[3]!, page[4]!, page[5]!, page[2]!, page[6]!];
    const diff = diffSnapshots(snap(page), snap(after))!;
    expect(diff.removed).toBe(0);
    const moved = diff.entries.find((entry) => entry.kind === 'changed');
    expect(moved && describeWas(moved.line, moved.was)).toBe('moved');
  });

  it('reports url and title changes (a same-document route change)', () => {
    const diff = diffSnapshots(snap(page), snap(page, 'http://127.0.0.1/b', 'Other'))!;
    expect(isEmptyDiff(diff)).toBe(false);
    const text = formatDiff(diff);
    expect(text).toContain('# url: http://127.0.0.1/a → http://127.0.0.1/b');
    expect(text).toContain('# title: Other');
  });

  it('does not pair lines of different kinds', () => {
    const before = ['- main', '  - text "Loading"'];
    const after = ['- main', '  - list', '    - listitem "One"'];
    const diff = diffSnapshots(snap(before), snap(after))!;
    expect(diff).toMatchObject({ added: 2, removed: 1, changed: 0 });
  });

  it('truncates visibly past the budget', () => {
    const after = [...page, ...Array.from({ length: 200 }, (_, i) => `- text "row ${i}"`)];
    const text = formatDiff(diffSnapshots(snap(page), snap(after))!, 500);
    expect(text.length).toBeLessThan(700);
    expect(text).toMatch(/… \d+ more changed lines/);
  });
});

describe('describeWas', () => {
  it('shows the old states when the element is the same kind with the same name', () => {
    expect(describeWas('- checkbox "Agree" [ref=e4] [checked]', '- checkbox "Agree" [ref=e4]')).toBe('was: no states');
    expect(describeWas('- checkbox "Agree" [ref=e4]', '- checkbox "Agree" [ref=e4] [checked]')).toBe('was: [checked]');
    expect(describeWas('- button "Save" [ref=e4]', '- button "Saving" [ref=e4] [disabled]')).toBe(
      'was: - button "Saving" [ref=e4] [disabled]',
    );
  });
});
