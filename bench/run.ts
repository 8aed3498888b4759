/**
 * `npm run bench`: every benchmark in one run, each printing a table with ratios against its
 * named baseline measured in the same run. Pass names to run only some: `npm run bench -- render`.
 */
import { formatTable, goalsTable, type BenchTable, type Goal } from './table';

export interface Bench {
  name: string;
  run(): Promise<BenchTable[]>;
}

/** Each bench module is listed once here. */
const benches: Array<() => Promise<{ bench: Bench }>> = [
  () => import('./snapshot.bench'),
  () => import('./actions.bench'),
  () => import('./render.bench'),
  () => import('./tasks.bench'),
  () => import('./panel.bench'),
  () => import('./background.bench'),
];

async function main(): Promise<void> {
  const only = new Set(process.argv.slice(2));
  const goals: Goal[] = [];
  for (const load of benches) {
    const { bench } = await load();
    if (only.size && !only.has(bench.name)) continue;
    console.log(`\nRunning ${bench.name}…`);
    for (const table of await bench.run()) {
      console.log(formatTable(table));
      goals.push(...(table.goals ?? []));
    }
  }
  if (goals.length) console.log(formatTable(goalsTable(goals)));
}

main().catch((error: unknown) => {
  console.error((error as Error).stack ?? String(error));
  process.exit(1);
});
