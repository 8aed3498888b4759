/**
 * The task suite (test/e2e/tasks-suite.ts) carried out by Tabwright and by Playwright MCP in one
 * run, the same plan for both, on the same pages from the same fixture server. Per task: did it
 * complete (the page's state afterwards, read by the test through the library's API), how many
 * characters the agent read, how many calls it made, and the wall time from the first call to the
 * last answer.
 *
 * The rule both sides play by, the one an agent follows (test/e2e/tasks-plan.ts, tasks-reads.ts):
 * - A task starts with one read of the page, counted: a snapshot.
 * - A step may act on a target only if that side's harness found the target's line (its role and
 *   name) in an earlier answer on that side: the snapshot, an action's answer, a lookup's answer.
 *   For Playwright MCP that includes the snapshot files its action answers link to: their
 *   characters are counted in the "+ snapshots" column, so a target seen only there counts as
 *   found; the answers-alone column then holds fewer characters than an agent reading only the
 *   answers would need, and the run counts how many targets were seen only in a linked file.
 * - A found line that prints a ref is acted on by the ref. One that prints none is acted on by its
 *   role and name: Tabwright's `target: { role, name }`; Playwright MCP's `target` takes a Playwright
 *   selector in place of a ref, so `internal:role=<role>[name="<name>"s]` (every element line of its
 *   snapshot prints a ref, so it rarely needs one).
 * - A target not found yet is looked up (find / browser_find), counted, and looked up again (up to
 *   three times, 400 ms apart) while the answer does not show it: a menu still opening.
 * Tabwright's action answers carry the page's diff, so what an action brings up is usually read
 * already; Playwright MCP's link to a snapshot file instead.
 *
 * How each plan step maps onto each contender's tools:
 *
 * | plan step     | Tabwright                                   | Playwright MCP                                       |
 * |---------------|---------------------------------------------|------------------------------------------------------|
 * | opening read  | snapshot {}                                 | browser_snapshot {}                                  |
 * | lookup        | find { text: name }                         | browser_find { text: name }                          |
 * | click         | click { ref, dialog? }                      | browser_click { target }, then browser_handle_dialog |
 * |               |                                             | { accept, promptText? } when the step answers one    |
 * | type          | type { ref, text, submit? }                 | browser_type { target, text, submit? }               |
 * | select_option | select_option { ref, label }                | browser_select_option { target, values: [label] }    |
 * | press_key     | press_key { ref, key }                      | browser_click { target }, then browser_press_key     |
 * |               |                                             | { key } (it has no element argument)                 |
 * | drag          | drag { ref, toRef }                         | browser_drag { startTarget, endTarget }              |
 * | upload_file   | upload_file { ref, files: [{ name, mimeType,| browser_click { target } (opens the file chooser),    |
 * |               | contentBase64 }] }                          | then browser_file_upload { paths }                   |
 *
 * (`ref` is `target: { role, name }` on Tabwright's side for a line without a ref, `target` a role
 * selector on Playwright MCP's.) Opening the page (Tabwright: the harness opens a tab; Playwright
 * MCP: browser_navigate, whose answer only links to a snapshot) is set-up and not counted for
 * either. Playwright MCP drives a Chromium (/usr/bin/chromium, the same build) the bench starts
 * with a DevTools port, so the bench reads that page's state the same way.
 *
 * TASKS_BENCH_DUMP=<dir> writes every answer either contender gave, one file per call
 * (`<dir>/<task>/<run>-<contender>-<call>-<tool>.txt`, the linked snapshot files after it), to see
 * where the characters go.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TIMING_META, type ActionTiming } from '../src/contract/mcp';
import { startActionRig, type ActionRig } from '../test/e2e/actions-rig';
import { ROOT } from '../test/e2e/harness';
import { taskPageRoutes } from '../test/e2e/tasks-pages';
import { runTask, type Adapter, type TaskRun } from '../test/e2e/tasks-plan';
import { selectedTasks } from '../test/e2e/tasks-suite';
import { tabwrightAdapter } from '../test/e2e/tasks-tabwright';
import type { Bench } from './run';
import { median, ratio, type BenchTable } from './table';
import { playwrightMcp } from './tasks-playwright-mcp';

const RUNS = Number(process.env.TASKS_BENCH_RUNS ?? 3);
const DUMP = process.env.TASKS_BENCH_DUMP;
const TASKS = selectedTasks();

/** The adapter, writing each answer it gives to the dump directory as well. */
function dumping(adapter: Adapter, dir: string, prefix: string): Adapter {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  return {
    ...adapter,
    async call(toolCall) {
      const answer = await adapter.call(toolCall);
      const name = `${prefix}-${String(++count).padStart(2, '0')}-${toolCall.tool}.txt`;
      const head = `${JSON.stringify(toolCall.args).slice(0, 300)}\n${answer.isError ? 'ERROR ' : ''}${answer.text.length} chars\n---\n`;
      const files = (answer.linked ?? []).map((file) => `\n--- linked file, ${file.length} chars ---\n${file}`);
      writeFileSync(join(dir, name), head + answer.text + files.join(''));
      return answer;
    },
  };
}

interface Tally {
  runs: TaskRun[];
}

type Measure = 'chars' | 'withLinked' | 'calls' | 'lookups' | 'seenOnlyLinked' | 'ms';

const done = (tally: Tally) => tally.runs.filter((run) => run.completed).length;

/** The rig, noting the timing of every action it answers (only actions carry it). */
function timingRig(rig: ActionRig, waits: ActionTiming[]): ActionRig {
  return Object.create(rig, {
    call: {
      value: async (...args: Parameters<ActionRig['call']>) => {
        const result = await rig.call(...args);
        const timing = (result._meta as Record<string, unknown> | undefined)?.[TIMING_META];
        if (timing) waits.push(timing as ActionTiming);
        return result;
      },
    },
  }) as ActionRig;
}

/** How the waits after Tabwright's actions ended, with how long they took. */
function waitRows(waits: ActionTiming[]): Array<Array<string | number>> {
  const kinds: Array<[string, (wait: ActionTiming) => boolean]> = [
    [
      'quiet, one beat (the page vouched nothing was due soon)',
      (w) => w.settleReason === 'quiet' && w.settleBeats === 1,
    ],
    ['quiet, two beats', (w) => w.settleReason === 'quiet' && w.settleBeats === 2],
    [
      'quiet, held longer (requests, animations, a router)',
      (w) => w.settleReason === 'quiet' && (w.settleBeats === undefined || w.settleBeats > 2),
    ],
    [
      'nothing changed, two beats (the page vouched nothing was due)',
      (w) => w.settleReason === 'idle' && !!w.settleBeats,
    ],
    ['nothing changed, the whole idle wait', (w) => w.settleReason === 'idle' && !w.settleBeats],
    ['the page kept changing (cap)', (w) => w.settleReason === 'cap'],
    ['navigation', (w) => w.settleReason === 'navigation'],
    ['no wait reported', (w) => w.settleReason === undefined],
  ];
  return kinds.map(([kind, test]) => {
    const these = waits.filter(test);
    return [kind, these.length, these.length ? median(these.map((w) => w.settleMs ?? 0)).toFixed(0) : '—'];
  });
}
const med = (tally: Tally, key: Measure) => median(tally.runs.map((run) => run[key]));

/** The goals, each against Playwright MCP on the same plans. */
const GOAL = {
  /** Characters per task, against its answers with the snapshot files they link to. */
  charsWithLinked: 0.3,
  /** Characters per task, against its answers alone. */
  chars: 0.55,
  /** Tool calls per task. */
  calls: 0.7,
};

export const bench: Bench = {
  name: 'tasks',
  async run(): Promise<BenchTable[]> {
    const routes = await taskPageRoutes();
    const rig = await startActionRig({ dist: process.env.TABWRIGHT_TEST_DIST ?? join(ROOT, 'dist-test'), routes });
    const waits: ActionTiming[] = [];
    const ours = tabwrightAdapter(timingRig(rig, waits));
    const theirs = await playwrightMcp();
    const tallies = TASKS.map(() => ({ ours: { runs: [] } as Tally, theirs: { runs: [] } as Tally }));
    try {
      for (let n = 0; n < RUNS; n++) {
        for (const [i, task] of TASKS.entries()) {
          // Alternate who goes first, so drift on a busy machine hits both alike.
          const order = n % 2 === 0 ? ([ours, theirs] as const) : ([theirs, ours] as const);
          for (const adapter of order) {
            const who = adapter === ours ? 'tabwright' : 'playwright';
            const contender = DUMP ? dumping(adapter, join(DUMP, task.id), `${n + 1}-${who}`) : adapter;
            const run = await runTask(task, contender, rig.fixtures.allowed);
            tallies[i]![adapter === ours ? 'ours' : 'theirs'].runs.push(run);
          }
        }
      }
    } finally {
      await theirs.shutdown();
      await rig.close().catch(() => undefined);
    }

    const libraries = [...new Set(TASKS.map((task) => task.library))].filter((name) => name !== 'native').join(', ');
    const rows: Array<Array<string | number>> = TASKS.map((task, i) => {
      const { ours: mine, theirs: other } = tallies[i]!;
      return [
        task.id,
        task.library,
        `${done(mine)}/${RUNS}`,
        `${done(other)}/${RUNS}`,
        Math.round(med(mine, 'chars')),
        Math.round(med(other, 'chars')),
        ratio(med(mine, 'chars'), med(other, 'chars')),
        Math.round(med(other, 'withLinked')),
        ratio(med(mine, 'chars'), med(other, 'withLinked')),
        med(mine, 'calls'),
        med(other, 'calls'),
        med(mine, 'lookups'),
        med(other, 'lookups'),
        med(other, 'seenOnlyLinked'),
        med(mine, 'ms').toFixed(0),
        med(other, 'ms').toFixed(0),
        ratio(med(mine, 'ms'), med(other, 'ms')),
      ];
    });
    const sum = (side: 'ours' | 'theirs', pick: (tally: Tally) => number) =>
      tallies.reduce((total, tally) => total + pick(tally[side]), 0);
    const total = (side: 'ours' | 'theirs', key: Measure) => sum(side, (t) => med(t, key));
    const chars = { ours: total('ours', 'chars'), theirs: total('theirs', 'chars') };
    const theirsLinked = total('theirs', 'withLinked');
    const calls = { ours: total('ours', 'calls'), theirs: total('theirs', 'calls') };
    const ms = { ours: total('ours', 'ms'), theirs: total('theirs', 'ms') };
    const completed = { ours: sum('ours', done), theirs: sum('theirs', done) };
    const runs = TASKS.length * RUNS;
    const floor = TASKS.reduce((total, task) => total + 1 + task.steps.length, 0);
    rows.push([
      'total',
      `${TASKS.length} tasks`,
      `${completed.ours}/${runs}`,
      `${completed.theirs}/${runs}`,
      Math.round(chars.ours),
      Math.round(chars.theirs),
      ratio(chars.ours, chars.theirs),
      Math.round(theirsLinked),
      ratio(chars.ours, theirsLinked),
      calls.ours,
      calls.theirs,
      total('ours', 'lookups'),
      total('theirs', 'lookups'),
      total('theirs', 'seenOnlyLinked'),
      ms.ours.toFixed(0),
      ms.theirs.toFixed(0),
      ratio(ms.ours, ms.theirs),
    ]);

    const misses = tallies.flatMap((tally, i) =>
      (['ours', 'theirs'] as const).flatMap((side) => {
        const failed = tally[side].runs.find((run) => !run.completed);
        if (!failed) return [];
        const who = side === 'ours' ? 'Tabwright' : 'Playwright MCP';
        const reason = (failed.failure ?? '')
          // Playwright's call logs carry terminal colours.
          .replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '')
          .replace(/\s+/g, ' ')
          .slice(0, 160);
        return [[TASKS[i]!.id, who, `${tally[side].runs.length - done(tally[side])}/${RUNS}`, reason]];
      }),
    );
    const perTask = (value: number) => Math.round(value / TASKS.length);

    return [
      {
        title: 'Tasks: the same plans through Tabwright and Playwright MCP',
        notes: [
          `${TASKS.length} tasks on pages built from npm component libraries (${libraries}) and native controls; ` +
            `${RUNS} run(s) each, alternating which contender goes first.`,
          'Tabwright: tools called from the broker side of the real tunnel (broker → panel → page), gates on, ' +
            'writes confirmed for the site once. Playwright MCP 0.0.83 over stdio, driving /usr/bin/chromium ' +
            'through --cdp-endpoint, with --allow-unrestricted-file-access for the upload files.',
          'One plan per task and one rule for both, what an agent does: the task starts with one counted ' +
            'read of the page (snapshot / browser_snapshot); a step acts on a target only if that side has ' +
            'read its line (role and name) in an earlier answer, by the ref the line prints, else by role and ' +
            "name (Tabwright's target { role, name }; Playwright MCP's target as the selector " +
            'internal:role=…[name="…"s], which it accepts); a target not read yet is looked up with find / ' +
            'browser_find, counted, again up to 3 times 400 ms apart while it is not shown. "lookups" counts ' +
            'those finds. The step mapping is in bench/tasks.bench.ts.',
          '"completed": every call answered without an error and the page\'s state afterwards, read by the ' +
            "bench through the library's own API, is the expected one. chars: characters of every answer the " +
            'agent read; calls: tool calls, the opening read and lookups included; ms: first call to last ' +
            'answer. Medians per task over the runs; the total row sums the medians. The first run includes ' +
            "the one confirmation per tool that Tabwright's panel asks for (allowed for the site after that).",
          "Playwright MCP's action answers do not show the page afterwards: they link to a snapshot file it " +
            'wrote. "+ snapshots" adds those files, which an agent reads to see what the action did — what ' +
            "Tabwright's answers say inline as a diff. A target Playwright MCP saw only in such a file counts " +
            'as read ("PW seen only linked" counts them): an agent reading its answers alone would have to ' +
            'look those up, so the answers-alone column is a floor for that agent, not its cost.',
        ],
        goals: [
          {
            measure: 'tasks completed',
            ours: `${completed.ours}/${runs}`,
            reference: `Playwright MCP ${completed.theirs}/${runs}`,
            now: `${completed.ours}/${runs}`,
            goal: 'every task',
            met: completed.ours === runs,
          },
          {
            measure: 'characters per task, against Playwright MCP with the snapshots it links',
            ours: `${perTask(chars.ours)} chars`,
            reference: `Playwright MCP ${perTask(theirsLinked)} with linked snapshots`,
            now: ratio(chars.ours, theirsLinked),
            goal: `≤ ${GOAL.charsWithLinked.toFixed(2)}×`,
            met: chars.ours <= GOAL.charsWithLinked * theirsLinked,
          },
          {
            measure: "characters per task, against Playwright MCP's answers alone",
            ours: `${perTask(chars.ours)} chars`,
            reference:
              `Playwright MCP ${perTask(chars.theirs)} in its answers ` +
              `(${total('theirs', 'seenOnlyLinked')} targets seen only in linked snapshots)`,
            now: ratio(chars.ours, chars.theirs),
            goal: `≤ ${GOAL.chars.toFixed(2)}×`,
            met: chars.ours <= GOAL.chars * chars.theirs,
          },
          {
            measure: 'tool calls per task',
            ours: `${(calls.ours / TASKS.length).toFixed(2)} calls`,
            reference:
              `Playwright MCP ${(calls.theirs / TASKS.length).toFixed(2)} (the rule's floor for either, ` +
              `one read and one call a step: ${(floor / TASKS.length).toFixed(2)})`,
            now: ratio(calls.ours, calls.theirs),
            goal: `≤ ${GOAL.calls.toFixed(2)}×`,
            met: calls.ours <= GOAL.calls * calls.theirs,
          },
        ],
        columns: [
          'task',
          'library',
          'done Tabwright',
          'done PW MCP',
          'chars Tabwright',
          'chars PW MCP',
          'chars ratio',
          'chars PW + snapshots',
          'ratio to that',
          'calls Tabwright',
          'calls PW MCP',
          'lookups Tabwright',
          'lookups PW MCP',
          'PW seen only linked',
          'ms Tabwright',
          'ms PW MCP',
          'ms ratio',
        ],
        rows,
      },
      {
        title: "Tasks: how the wait after each of Tabwright's actions ended",
        notes: [
          `Every action of every run (${waits.length}), read from its result's timing _meta; settle ms is the wait ` +
            'after the action, median per kind. A wait ends on quiet beats of about a frame once the page changed, ' +
            'or, when nothing changed, after the idle wait (300 ms) unless the page vouched nothing was due.',
        ],
        columns: ['how it ended', 'actions', 'settle ms (median)'],
        rows: waitRows(waits),
      },
      {
        title: 'Tasks not completed, and why (first failed run)',
        notes: ['Every miss of either contender is listed; none is left out of the table above.'],
        columns: ['task', 'who', 'missed', 'why'],
        rows: misses.length ? misses : [['—', '—', '—', 'none']],
      },
    ];
  },
};
