/**
 * Tasks in a tab that is not in front against the same tasks in front, through the background rig
 * (test/e2e/background-rig.ts: Chromium without the switches that keep background tabs running,
 * the real side panel). Per task: the median wall time from the first call to the last answer, the
 * agent's tab hidden (checked before each run: hidden, no focus, its 10 ms timers held to about
 * one a second) and brought to the front. Target for tasks without page timers or animation:
 * ≤ 1.2× in front.
 *
 * BACKGROUND_BENCH_HIDDEN_MINUTES=6 adds a tab left hidden that long (Chrome holds chained timers
 * to about once a minute after five minutes) before a task runs in it.
 */
import { startBackgroundRig } from '../test/e2e/background-rig';
import { backgroundAdapter, type Controls } from '../test/e2e/background-tasks';
import { taskPageRoutes } from '../test/e2e/tasks-pages';
import { runTask } from '../test/e2e/tasks-plan';
import { TASKS } from '../test/e2e/tasks-suite';
import type { Bench } from './run';
import { median, ratio, type BenchTable, type Goal } from './table';

const RUNS = Number(process.env.BACKGROUND_BENCH_RUNS ?? 3);
const HIDDEN_MINUTES = Number(process.env.BACKGROUND_BENCH_HIDDEN_MINUTES ?? 0);
const TARGET = 1.2;
/** Tasks with no page timers or animation of their own: a form, a date, dialogs, an upload. */
const PLAIN = ['native-contact', 'native-number', 'native-date', 'native-confirm', 'native-prompt', 'native-file'];

export const bench: Bench = {
  name: 'background',
  async run(): Promise<BenchTable[]> {
    const rig = await startBackgroundRig({ routes: await taskPageRoutes(), agents: ['Alpha', 'Beta'] });
    // One agent works in the background, the other in front: each has a current tab of its own.
    const [agent, other] = rig.agents as [(typeof rig.agents)[0], (typeof rig.agents)[0]];
    const rows: Array<Array<string | number>> = [];
    const goals: Goal[] = [];
    try {
      const hiddenSeen: Controls[] = [];
      const back = backgroundAdapter(rig, agent, (checked) => hiddenSeen.push(checked));
      const front = backgroundAdapter(rig, other, () => undefined, 'front');
      const timeOf = async (adapter: typeof back, id: string) => {
        const task = TASKS.find((candidate) => candidate.id === id)!;
        const run = await runTask(task, adapter, rig.fixtures.allowed);
        await rig.person.bringToFront();
        if (run.failure) throw new Error(`${id} (${adapter.label}): ${run.failure}`);
        return run.ms;
      };
      const fronts: number[] = [];
      for (const id of PLAIN) {
        const hidden: number[] = [];
        const shown: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          hidden.push(await timeOf(back, id));
          shown.push(await timeOf(front, id));
        }
        const last = hiddenSeen.at(-1)!;
        const now = median(hidden) / median(shown);
        fronts.push(median(shown));
        rows.push([
          id,
          median(hidden).toFixed(0),
          median(shown).toFixed(0),
          ratio(median(hidden), median(shown)),
          `${last.visibility}, focus ${last.focus}, ${last.steps} timer steps in 2 s`,
        ]);
        goals.push({
          measure: `background: ${id}`,
          ours: `${median(hidden).toFixed(0)} ms`,
          reference: `${median(shown).toFixed(0)} ms in front`,
          now: `${now.toFixed(2)}×`,
          goal: `≤ ${TARGET}×`,
          met: now <= TARGET,
        });
      }
      if (HIDDEN_MINUTES > 0) {
        const long = backgroundAdapter(rig, agent, (checked) => hiddenSeen.push(checked));
        const id = PLAIN[0]!;
        const task = TASKS.find((candidate) => candidate.id === id)!;
        const page = await long.open(`${rig.fixtures.allowed}${task.page}`);
        await new Promise((resolve) => setTimeout(resolve, HIDDEN_MINUTES * 60_000));
        // The task runs in the document that was hidden all along, not a new one.
        const ms = await timeOf({ ...long, open: async () => page }, id);
        const last = hiddenSeen.at(-1)!;
        rows.push([
          `${id} after ${HIDDEN_MINUTES} min hidden`,
          ms.toFixed(0),
          fronts[0]!.toFixed(0),
          ratio(ms, fronts[0]!),
          `${last.visibility}, focus ${last.focus}, ${last.steps} timer steps in 2 s`,
        ]);
      }
    } finally {
      await rig.close();
    }
    return [
      {
        title: 'Tasks in a background tab against the same tasks in front',
        notes: [
          `Median of ${RUNS} runs per task, wall time from the first call to the last answer, real side panel; one agent works hidden, another in front.`,
          'Chromium runs without --disable-background-timer-throttling, --disable-renderer-backgrounding and ' +
            '--disable-backgrounding-occluded-windows, and Playwright does not emulate focus.',
          `Target: ≤ ${TARGET}× the time in front for tasks without page timers or animation.`,
        ],
        columns: ['task', 'background ms', 'front ms', 'ratio', 'agent’s tab before the last hidden run'],
        rows,
        goals,
      },
    ];
  },
};
