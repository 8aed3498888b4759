import { describe, expect, it } from 'vitest';
import { describeWas, diffSnapshots, formatDiff, isEmptyDiff, type SnapshotLines } from './snapshot-diff';

const snap = (lines: string[], url = 'http://127.0.0.1/a', title = 'Page'): SnapshotLines => ({ title, url, lines });

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
        '# changes: 1 changed',
        '  - main',
        '    - paragraph',
        '~     - text "Clicked 1 times." (was: "Clicked 0 times.")',
      ].join('\n'),
    );
  });

  it('pairs lines by ref and says which states changed', () => {
    const after = [...page];
    after[5] = '  - textbox "Your name" [ref=e2] [value="Ada"]';
    const diff = diffSnapshots(snap(page), snap(after))!;
    expect(diff.changed).toBe(1);
    expect(formatDiff(diff)).toContain('~   - textbox "Your name" [ref=e2] [value="Ada"] (was: no [value])');
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
  it('shows only the old name and states that differ when the element is the same kind', () => {
    expect(describeWas('- checkbox "Agree" [ref=e4] [checked]', '- checkbox "Agree" [ref=e4]')).toBe(
      'was: no [checked]',
    );
    expect(describeWas('- checkbox "Agree" [ref=e4]', '- checkbox "Agree" [ref=e4] [checked]')).toBe('was: [checked]');
    expect(describeWas('- button "Save" [ref=e4]', '- button "Saving" [ref=e4] [disabled]')).toBe(
      'was: "Saving" [disabled]',
    );
    expect(
      describeWas(
        '- textbox "Birthday" [ref=e1] [value="2024-05-31"] [format=YYYY-MM-DD]',
        '- textbox "Birthday" [ref=e1] [format=YYYY-MM-DD]',
      ),
    ).toBe('was: no [value]');
    expect(describeWas('- combobox "Size" [ref=e2] [value="M"]', '- combobox "Size" [ref=e2] [value="S"]')).toBe(
      'was: [value="S"]',
    );
    expect(describeWas('- heading "Done"', '- heading')).toBe('was: no name');
    expect(describeWas('  - "Clicked 1 times."', '  - "Clicked 0 times."')).toBe('was: "Clicked 0 times."');
  });

  it('shows the whole old line when the role changed', () => {
    expect(describeWas('- link "Save" [ref=e4]', '- button "Save" [ref=e4]')).toBe('was: - button "Save" [ref=e4]');
  });
});
