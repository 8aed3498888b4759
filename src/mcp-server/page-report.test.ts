import { describe, expect, it } from 'vitest';
import { describeChange } from './page-report';
import { findLines, formatSnapshot } from './snapshot-format';
import { gridLines as grid } from '../page/grid-lines-fixture';

describe('a page with a table, as the model reads it', () => {
  const page = (rows: Array<[string, string, string]>, firstRef: number, documentId = 'doc-1') => ({
    title: 'Orders',
    url: 'http://127.0.0.1/orders',
    lines: grid(rows, firstRef),
    documentId,
  });
  const orders: Array<[string, string, string]> = [
    ['PO-1', 'Acme', '10'],
    ['PO-2', 'Globex', '30'],
    ['PO-3', 'Initech', '20'],
  ];

  it('shows each row on one line in a snapshot, while find reads cells on lines of their own', () => {
    const text = formatSnapshot(page(orders, 4), 0, 'http://127.0.0.1');
    expect(text.split('\n')).toEqual([
      '# snapshot — Orders · /orders',
      '- grid "Orders"',
      '  - row: columnheader "Order" [e1] | columnheader "Supplier" [e2] | columnheader "Quantity" [e3]',
      '  - row: "PO-1" [e4] | "Acme" [e5] | "10" [e6]',
      '  - row: "PO-2" [e7] | "Globex" [e8] | "30" [e9]',
      '  - row: "PO-3" [e10] | "Initech" [e11] | "20" [e12]',
      '- button "Next page" [e99]',
    ]);
    expect(findLines(page(orders, 4).lines, { role: 'gridcell', text: 'Acme' }).groups).toEqual([
      ['# in grid "Orders" › row 2', '- gridcell "Acme" [e5]'],
    ]);
  });

  it('tells a sort as the rows that changed, one line each', () => {
    const sorted = page([orders[0]!, orders[2]!, orders[1]!], 20);
    const change = describeChange(page(orders, 4), sorted);
    expect(change.kind).toBe('diff');
    expect(change.text.split('\n')).toEqual([
      '# in grid "Orders"',
      '~ - row: "PO-3" [e23] | "Initech" [e24] | "20" [e25] (was: "PO-2" [e7] | "Globex" [e8] | "30" [e9])',
      '~ - row: "PO-2" [e26] | "Globex" [e27] | "30" [e28] (was: "PO-3" [e10] | "Initech" [e11] | "20" [e12])',
      // The first row reads as it did: only its refs are new, each cell's told.
      '# 1 line redrawn as it was, new refs: e4–e6 → e20–e22',
    ]);
  });

  it('gives every ref of a redrawn row its new ref, and counts every ref of removed rows', () => {
    const redrawn = describeChange(page(orders, 4), page(orders, 30));
    expect(redrawn.text).toBe('# 3 lines redrawn as they were, new refs: e4–e12 → e30–e38');
    const many: Array<[string, string, string]> = Array.from({ length: 8 }, (_, i) => [`PO-${i}`, 'Acme', `${i}`]);
    const fewer = describeChange(page(many, 4), page(many.slice(0, 1), 4));
    expect(fewer.text).toBe('# 7 lines removed, refs e7–e27');
  });
});
