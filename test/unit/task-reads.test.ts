import { describe, expect, it } from 'vitest';
import { Reads, sightingsIn } from '../e2e/tasks-reads';
import type { Target } from '../e2e/tasks-plan';

// Lines as Playwright MCP 0.0.83 and Tabwright print them in their answers.
const PLAYWRIGHT = `- generic [ref=e5]:
  - generic [ref=e12] [cursor=pointer]: File
  - listitem [ref=e20]: Deploy
  - link "14" [ref=e31] [cursor=pointer]
  - gridcell "SKU-2015" [ref=e40]
  - generic [ref=e41]: "14:00"
  - generic [ref=e42]: File menu`;

const TABWRIGHT = `- table
  - row
    - cell "Ashton Cox"
    - cell "London"
  - button "Next" [e9]`;

const DIFF = `# changes: 2 changed, 2 added, 1 removed
~ - combobox "Country" [e3] [expanded=true] (was: [expanded=false])
  - listbox "Countries"
+   - option "France" [e7]
+   - option "Spain" [e8]
- - button "Close" [e4]
~ - link "Save" (was: - button "Save" [e5])`;

const ref = (text: string, target: Target) => sightingsIn(text, target).find((seen) => !seen.removed)?.ref;

describe('finding a target in what was read', () => {
  it('takes the ref of a line whose name follows the colon', () => {
    expect(ref(PLAYWRIGHT, { role: 'generic', name: 'File' })).toBe('e12');
    expect(ref(PLAYWRIGHT, { role: ['generic', 'listitem'], name: 'Deploy' })).toBe('e20');
    expect(ref(PLAYWRIGHT, { role: 'generic', name: '14:00' })).toBe('e41');
  });

  it('takes the ref of an element whose own text comes first among its children', () => {
    const menu = `- generic [ref=f2e2]:
  - generic [ref=f2e3] [cursor=pointer]:
    - text: File
    - generic [ref=f2e4]: 
  - generic [ref=f2e9]:
    - textbox "Name" [ref=f2e10]
    - text: View`;
    expect(ref(menu, { role: 'generic', name: 'File' })).toBe('f2e3');
    // Text after another child is not what names its parent.
    expect(sightingsIn(menu, { role: 'generic', name: 'View' })).toEqual([]);
  });

  it('matches the whole name, or a prefix when the target asks for one', () => {
    expect(sightingsIn(PLAYWRIGHT, { role: 'generic', name: 'File men' })).toEqual([]);
    expect(ref(PLAYWRIGHT, { role: 'generic', name: 'File men', prefix: true })).toBe('e42');
    expect(sightingsIn(PLAYWRIGHT, { role: 'button', name: 'File' })).toEqual([]);
    expect(sightingsIn(DIFF, { role: 'combobox', name: 'Count', prefix: true })[0]).toMatchObject({
      name: 'Country',
      ref: 'e3',
    });
  });

  it('takes quoted names in either format', () => {
    expect(ref(PLAYWRIGHT, { role: 'link', name: '14' })).toBe('e31');
    expect(ref(PLAYWRIGHT, { role: 'gridcell', name: 'SKU-2015' })).toBe('e40');
    expect(ref(TABWRIGHT, { role: 'button', name: 'Next' })).toBe('e9');
  });

  it('gives the printed role and name of a line without a ref', () => {
    expect(sightingsIn(TABWRIGHT, { role: ['row', 'cell'], name: 'Ashton Cox' })).toEqual([
      { role: 'cell', name: 'Ashton Cox', removed: false },
    ]);
  });

  it('reads a diff: added and changed lines are on the page, removed ones are not', () => {
    expect(ref(DIFF, { role: 'option', name: 'France' })).toBe('e7');
    expect(ref(DIFF, { role: 'combobox', name: 'Country' })).toBe('e3');
    expect(sightingsIn(DIFF, { role: 'listbox', name: 'Countries' })).toEqual([
      { role: 'listbox', name: 'Countries', removed: false },
    ]);
    expect(sightingsIn(DIFF, { role: 'button', name: 'Close' })).toEqual([
      { role: 'button', name: 'Close', ref: 'e4', removed: true },
    ]);
  });

  it('does not take the ref a changed line used to have', () => {
    expect(sightingsIn(DIFF, { role: 'link', name: 'Save' })).toEqual([{ role: 'link', name: 'Save', removed: false }]);
    expect(sightingsIn(DIFF, { role: 'button', name: 'Save' })).toEqual([]);
  });

  it('reads the items of a table row Tabwright printed on one line', () => {
    const rows = `- grid "Orders"
  - row: columnheader "Order" [e1] | columnheader "Supplier" [e2]
  - row: "PO-1001" [e4] | "Acme | Sons" [e5] | checkbox "Pick" [e6]
~ - row: "PO-1002" [e9] | "Globex" [e10] (was: "PO-1002" [e7] | "Globex" [e8])`;
    expect(ref(rows, { role: 'columnheader', name: 'Supplier' })).toBe('e2');
    expect(ref(rows, { role: ['gridcell', 'cell'], name: 'Acme | Sons' })).toBe('e5');
    expect(ref(rows, { role: 'cell', name: 'PO-1001' })).toBeUndefined();
    expect(ref(rows, { role: 'checkbox', name: 'Pick' })).toBe('e6');
    expect(ref(rows, { role: 'gridcell', name: 'Globex' })).toBe('e10');
    expect(ref(rows, { role: 'gridcell', name: 'Acme' })).toBeUndefined();
    expect(ref(rows, { role: 'columnheader', name: 'PO-1001' })).toBeUndefined();
    expect(ref(rows, { role: 'gridcell', name: 'PO-10', prefix: true })).toBe('e4');
    // A plain cell's role is its container's: a table's cell, a grid's gridcell.
    const table = `- table "Staff"\n  - row: "Ashton Cox" | "London"\n# in grid "Orders" › rowgroup\n~ - row: "PO-7" [e3]`;
    expect(sightingsIn(table, { role: ['gridcell', 'cell'], name: 'London' })).toEqual([
      { role: 'cell', name: 'London', removed: false },
    ]);
    expect(sightingsIn(table, { role: ['cell', 'gridcell'], name: 'PO-7' })).toEqual([
      { role: 'gridcell', name: 'PO-7', ref: 'e3', removed: false },
    ]);
  });

  it('reads a find answer whose lines carry their place after them', () => {
    const find = '# 1 matching line · Shop · /\n- option "France" [e7] · in listbox "Countries"';
    expect(ref(find, { role: 'option', name: 'France' })).toBe('e7');
  });
});

describe('what one side has read', () => {
  const france: Target = { role: 'option', name: 'France' };
  const close: Target = { role: 'button', name: 'Close' };

  it('finds nothing before anything was read', () => {
    expect(new Reads().find(france)).toBeUndefined();
  });

  it('takes the newest line: a later diff gives a re-rendered element its new ref', () => {
    const reads = new Reads();
    reads.add({ text: '- button "Close" [e4]', whole: true, linked: false });
    reads.add({
      text: '# changes: 1 added, 1 removed\n- - button "Close" [e4]\n+ - button "Close" [e9]',
      whole: false,
      linked: false,
    });
    expect(reads.find(close)).toMatchObject({ ref: 'e9', linked: false });
  });

  it('knows an element a later diff removed is gone', () => {
    const reads = new Reads();
    reads.add({ text: TABWRIGHT + '\n- button "Close" [e4]', whole: true, linked: false });
    reads.add({ text: DIFF, whole: false, linked: false });
    expect(reads.find(close)).toBeUndefined();
    // A diff that does not mention a line leaves it as it was.
    expect(reads.find({ role: 'button', name: 'Next' })).toMatchObject({ ref: 'e9' });
  });

  it('follows a later diff that redrew lines with new refs, or counted them removed', () => {
    const reads = new Reads();
    reads.add({
      text: '# in navigation "Pages"\n- link "Next" [e15]\n- link "Last" [e16]',
      whole: false,
      linked: false,
    });
    reads.add({ text: '# 8 lines redrawn as they were, new refs: e9–e16 → e19–e26', whole: false, linked: false });
    expect(reads.find({ role: 'link', name: 'Next' })?.ref).toBe('e25');
    reads.add({ text: '# in grid\n+ - row\n# 40 more lines removed, refs e5, e20–e25', whole: false, linked: false });
    expect(reads.find({ role: 'link', name: 'Next' })).toBeUndefined();
  });

  it('knows an element a later whole page lacks is gone', () => {
    const reads = new Reads();
    reads.add({ text: DIFF, whole: false, linked: false });
    reads.add({ text: TABWRIGHT, whole: true, linked: true });
    expect(reads.find(france)).toBeUndefined();
    expect(reads.find({ role: 'button', name: 'Next' })).toMatchObject({ ref: 'e9', linked: true });
  });
});
