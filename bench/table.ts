/** Benchmark tables: aligned columns, printed to stdout, one table per bench. */

export interface BenchTable {
  title: string;
  /** What was compared, how it was measured, and what the target is. */
  notes: string[];
  columns: string[];
  rows: Array<Array<string | number>>;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export function ratio(ours: number, baseline: number): string {
  return baseline === 0 ? 'n/a' : `${(ours / baseline).toFixed(2)}×`;
}

export function formatTable(table: BenchTable): string {
  const cells = [table.columns, ...table.rows.map((row) => row.map(String))];
  const widths = table.columns.map((_, i) => Math.max(...cells.map((row) => (row[i] ?? '').length)));
  const line = (row: string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ')} |`;
  return [
    `## ${table.title}`,
    ...table.notes.map((note) => `> ${note}`),
    '',
    line(table.columns),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...cells.slice(1).map(line),
    '',
  ].join('\n');
}
