/** The lines a page agent prints for a grid of orders under its header row, cells numbered from `firstRef`. */
export const gridLines = (rows: ReadonlyArray<readonly [string, string, string]>, firstRef: number): string[] => [
  '- grid "Orders"',
  '  - row',
  '    - columnheader "Order" [e1]',
  '    - columnheader "Supplier" [e2]',
  '    - columnheader "Quantity" [e3]',
  ...rows.flatMap((cells, r) => [
    '  - row',
    ...cells.map((cell, c) => `    - gridcell "${cell}" [e${firstRef + r * 3 + c}]`),
  ]),
  '- button "Next page" [e99]',
];
