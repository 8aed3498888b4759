/** The lines a page agent prints for a grid of orders under its header row, cells numbered from `firstRef`. */
export const gridLines = (rows: ReadonlyArray<readonly [string, string, string]>, firstRef: number): string[] => [
  '- grid "Orders"',
  '  - row',
  '    - columnheader "Order" [ref=e1]',
  '    - columnheader "Supplier" [ref=e2]',
  '    - columnheader "Quantity" [ref=e3]',
  ...rows.flatMap((cells, r) => [
    '  - row',
    ...cells.map((cell, c) => `    - gridcell "${cell}" [ref=e${firstRef + r * 3 + c}]`),
  ]),
  '- button "Next page" [ref=e99]',
];
