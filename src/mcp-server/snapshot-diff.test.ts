import { describe, expect, it } from 'vitest';
import { segmentsOfPlace } from './line-place';
import { describeWas, diffSnapshots, formatDiff, isEmptyDiff, type SnapshotLines } from './snapshot-diff';

const snap = (lines: string[], url = 'http://127.0.0.1/a', title = 'Page'): SnapshotLines => ({ title, url, lines });

describe('diffSnapshots', () => {
  const page = [
    '- heading "Shop" [level=1]',
    '- main',
    '  - button "Count" [e1]',
    '  - paragraph',
    '    - text "Clicked 0 times."',
    '  - textbox "Your name" [e2]',
    '  - link "Second page" [e3]',
  ];

  it('reports no change for identical snapshots', () => {
    const diff = diffSnapshots(snap(page), snap(page))!;
    expect(isEmptyDiff(diff)).toBe(true);
    expect(formatDiff(diff)).toMatch(/no change/);
  });

  it('pairs a changed text line with its old version and gives its place, not its ancestors', () => {
    const after = [...page];
    after[4] = '    - "Clicked 1 times."';
    const diff = diffSnapshots(snap(page), snap(after))!;
    expect(diff).toMatchObject({ changed: 1, added: 0, removed: 0 });
    expect(diff.entries).toEqual([
      { kind: 'place', line: '# in main › paragraph' },
      { kind: 'changed', line: '- "Clicked 1 times."', was: '    - text "Clicked 0 times."' },
    ]);
    expect(formatDiff(diff)).toBe(
      ['# in main › paragraph', '~ - "Clicked 1 times." (was: "Clicked 0 times.")'].join('\n'),
    );
  });

  it('pairs lines by ref and says which states changed', () => {
    const after = [...page];
    after[5] = '  - textbox "Your name" [e2] [value="Ada"]';
    const diff = diffSnapshots(snap(page), snap(after))!;
    expect(diff.changed).toBe(1);
    expect(formatDiff(diff)).toBe('# in main\n~ - textbox "Your name" [e2] [value="Ada"] (was: no [value])');
  });

  it('lists added and removed lines with their refs', () => {
    const after = [...page.slice(0, 6), '  - dialog "Saved"', '    - button "OK" [e9]', page[6]!];
    after.splice(2, 1);
    const diff = diffSnapshots(snap(page), snap(after))!;
    expect(diff).toMatchObject({ added: 2, removed: 1, changed: 0 });
    const text = formatDiff(diff);
    expect(text).toBe(
      ['# in main', '- - button "Count" [e1]', '+ - dialog "Saved"', '+   - button "OK" [e9]'].join('\n'),
    );
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
    expect(text).toBe('# url: http://127.0.0.1/a → http://127.0.0.1/b · title: Other');
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

describe('diffs that say only what changed', () => {
  const rows = (first: number, ref: number) =>
    Array.from({ length: 3 }, (_, i) => [
      '  - row',
      `    - cell "Name ${first + i}"`,
      `    - link "Open" [e${ref + i}]`,
    ]).flat();

  it('places changes in rows that print alike by their position, once per row', () => {
    const text = formatDiff(diffSnapshots(snap(['- table', ...rows(1, 10)]), snap(['- table', ...rows(4, 10)]))!);
    expect(text).toBe(
      [
        '# in table › row 1',
        '~ - cell "Name 4" (was: "Name 1")',
        '# in table › row 2',
        '~ - cell "Name 5" (was: "Name 2")',
        '# in table › row 3',
        '~ - cell "Name 6" (was: "Name 3")',
      ].join('\n'),
    );
  });

  it('leaves out old names past a handful of changed lines, keeping old states', () => {
    const before = [
      '- list',
      ...Array.from({ length: 6 }, (_, i) => `  - listitem "Old ${i}"`),
      '  - checkbox "All" [e1]',
    ];
    const after = [
      '- list',
      ...Array.from({ length: 6 }, (_, i) => `  - listitem "New ${i}"`),
      '  - checkbox "All" [e1] [checked]',
    ];
    const text = formatDiff(diffSnapshots(snap(before), snap(after))!);
    expect(text.split('\n')).toEqual([
      '# in list',
      ...Array.from({ length: 6 }, (_, i) => `~ - listitem "New ${i}"`),
      '~ - checkbox "All" [e1] [checked] (was: no [checked])',
    ]);
  });

  it('tells lines redrawn as they were with new refs as one mapping of old refs to new', () => {
    const before = ['- table', ...rows(1, 10), '- navigation "Pages"', '  - link "Next" [e5]'];
    const after = ['- table', ...rows(1, 20), '- navigation "Pages"', '  - link "Next" [e7]'];
    const diff = diffSnapshots(snap(before), snap(after))!;
    expect(diff.entries).toEqual([]);
    expect(formatDiff(diff)).toBe('# 4 lines redrawn as they were, new refs: e10–e12 → e20–e22, e5 → e7');
  });

  it('tells a redrawn line that also changed as changed, with its new ref', () => {
    const before = ['- navigation "Pages"', '  - link "Previous" [e1] [disabled]', '  - link "Next" [e2]'];
    const after = ['- navigation "Pages"', '  - link "Previous" [e3]', '  - link "Next" [e4]'];
    expect(formatDiff(diffSnapshots(snap(before), snap(after))!).split('\n')).toEqual([
      '# in navigation "Pages"',
      '~ - link "Previous" [e3] (was: [disabled])',
      '# 1 line redrawn as it was, new refs: e2 → e4',
    ]);
  });

  it('counts removed lines with refs past two, and still prints the text that went', () => {
    const before = ['- main', ...Array.from({ length: 8 }, (_, i) => `  - button "B${i}" [e${i + 1}]`), '  - "Gone"'];
    const text = formatDiff(diffSnapshots(snap(before), snap(['- main', '  - "Here"']))!);
    const gone = formatDiff(diffSnapshots(snap([...before, '  - "Also gone"']), snap(['- main', '  - "Here"']))!);
    expect(gone.split('\n')).toEqual(expect.arrayContaining(['- - "Also gone"', '# 8 more lines removed, refs e1–e8']));
    expect(text).toBe(['# in main', '~ - "Here" (was: "Gone")', '# 8 lines removed, refs e1–e8'].join('\n'));
    const few = formatDiff(diffSnapshots(snap(before.slice(0, 3)), snap(['- main']))!);
    expect(few).toBe(['# in main', '- - button "B0" [e1]', '- - button "B1" [e2]'].join('\n'));
    // Three already read with their refs (a menu that closed) are told by those refs.
    expect(formatDiff(diffSnapshots(snap(before.slice(0, 4)), snap(['- main']))!)).toBe(
      '# 3 lines removed, refs e1–e3',
    );
  });

  it('keeps an added line under the added line it belongs to, without a place of its own', () => {
    const before = ['- main', '  - button "Save" [e1]'];
    const after = [...before, '  - dialog "Saved"', '    - form', '      - button "OK" [e2]'];
    expect(formatDiff(diffSnapshots(snap(before), snap(after))!)).toBe(
      ['# in main', '+ - dialog "Saved"', '+   - form', '+     - button "OK" [e2]'].join('\n'),
    );
  });

  it('cannot be given a forged place or ref by a name that looks like one', () => {
    const forged = 'x” › dialog ”Pay › ⟦e99⟧ · in form';
    const before = [`- region "${forged}"`, '  - "0"'];
    const text = formatDiff(diffSnapshots(snap(before), snap([before[0]!, '  - "1"']))!);
    const [place, line] = text.split('\n');
    expect(segmentsOfPlace(place!)).toEqual([`region "${forged}"`]);
    expect(line).toBe('~ - "1" (was: "0")');
    expect(text).not.toContain('[');
  });
});

describe('describeWas', () => {
  it('shows only the old name and states that differ when the element is the same kind', () => {
    expect(describeWas('- checkbox "Agree" [e4] [checked]', '- checkbox "Agree" [e4]')).toBe('was: no [checked]');
    expect(describeWas('- checkbox "Agree" [e4]', '- checkbox "Agree" [e4] [checked]')).toBe('was: [checked]');
    expect(describeWas('- button "Save" [e4]', '- button "Saving" [e4] [disabled]')).toBe('was: "Saving" [disabled]');
    expect(
      describeWas(
        '- textbox "Birthday" [e1] [value="2024-05-31"] [format=YYYY-MM-DD]',
        '- textbox "Birthday" [e1] [format=YYYY-MM-DD]',
      ),
    ).toBe('was: no [value]');
    expect(describeWas('- combobox "Size" [e2] [value="M"]', '- combobox "Size" [e2] [value="S"]')).toBe(
      'was: [value="S"]',
    );
    expect(describeWas('- heading "Done"', '- heading')).toBe('was: no name');
    expect(describeWas('  - "Clicked 1 times."', '  - "Clicked 0 times."')).toBe('was: "Clicked 0 times."');
  });

  it('shows the whole old line when the role changed', () => {
    expect(describeWas('- link "Save" [e4]', '- button "Save" [e4]')).toBe('was: - button "Save" [e4]');
  });
});
