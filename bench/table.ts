/** Benchmark tables: aligned columns, printed to stdout, one table per bench. */

export interface BenchTable {
  title: string;
  /** What was compared, how it was measured, and what the target is. */
  notes: string[];
  columns: string[];
  rows: Array<Array<string | number>>;
  /** Rows of the goals summary: each measure beside its reference and its target. */
  goals?: Goal[];
}

/** One measure against its goal, gathered from every bench into the closing table. */
export interface Goal {
  measure: string;
  ours: string;
  reference: string;
  /** Ours against the reference, as the goal states it (e.g. `0.18×`). */
  now: string;
  goal: string;
  met: boolean;
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

/** The 5th to 95th percentile, as `low–high` ms. */
export function spread(values: readonly number[]): string {
  return `${percentile(values, 5).toFixed(0)}–${percentile(values, 95).toFixed(0)}`;
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

/** The closing table: every goal of every bench that ran, beside its reference. */
export function goalsTable(goals: readonly Goal[]): BenchTable {
  return {
    title: 'Goals',
    notes: ['Each measure of the benches above beside its reference, with its target and whether this run met it.'],
    columns: ['measure', 'Tabwright', 'reference', 'now', 'target', 'met'],
    rows: goals.map((g) => [g.measure, g.ours, g.reference, g.now, g.goal, g.met ? 'yes' : 'no']),
  };
}
