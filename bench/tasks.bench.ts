/**
 * The task suite (test/e2e/tasks-suite.ts) carried out by Tabwright and by Playwright MCP in one
 * run, the same plan for both, on the same pages from the same fixture server. Per task: did it
 * complete (the page's state afterwards, read by the test through the library's API), how many
 * characters the agent read, how many calls it made, and the wall time from the first call to the
 * last answer.
 *
 * How each plan step maps onto each contender's tools:
 *
 * | plan step     | Tabwright                                   | Playwright MCP                                       |
 * |---------------|---------------------------------------------|------------------------------------------------------|
 * | find          | find { text: name }                         | browser_find { text: name }                          |
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
 * Each target is looked up with one find call, on both sides: neither reads a whole snapshot, and
 * a target not shown yet is looked for again (up to three times, 400 ms apart) on both sides. A
 * target nothing on the page marks as clickable (`unmarked`: a DataTables cell) may be printed by
 * Tabwright without a ref; Tabwright then acts on it by `target: { role, name }`, as its tools say.
 * Playwright MCP prints a ref on every line, also as `- role [ref=…]: name` (found too).
 * Tabwright's action answers carry the page's diff; Playwright MCP's link to a snapshot file
 * instead. Both are counted: what the calls return, and for Playwright MCP also with the linked
 * files, which its agent reads to see what an action did (the same information as the diff).
 * Opening the page (Tabwright: the harness opens a tab; Playwright MCP: browser_navigate) is set-up
 * and not counted for either. Playwright MCP drives a Chromium (/usr/bin/chromium, the same build)
 * the bench starts with a DevTools port, so the bench reads that page's state the same way.
 *
 * TASKS_BENCH_DUMP=<dir> writes every answer either contender gave, one file per call
 * (`<dir>/<task>/<run>-<contender>-<call>-<tool>.txt`), to see where the characters go.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { startActionRig } from '../test/e2e/actions-rig';
import { CHROMIUM, CHROMIUM_ARGS, ROOT } from '../test/e2e/harness';
import { taskPageRoutes } from '../test/e2e/tasks-pages';
import {
  describeTarget,
  runTask,
  type Adapter,
  type Handle,
  type Step,
  type TaskFile,
  type TaskRun,
  type ToolCall,
} from '../test/e2e/tasks-plan';
import { selectedTasks } from '../test/e2e/tasks-suite';
import { tabwrightAdapter } from '../test/e2e/tasks-tabwright';
import type { Bench } from './run';
import { median, ratio, type BenchTable } from './table';

const RUNS = Number(process.env.TASKS_BENCH_RUNS ?? 3);
const DUMP = process.env.TASKS_BENCH_DUMP;
const TASKS = selectedTasks();
/** Characters read per task, against Playwright MCP's with the snapshots its answers link to. */
const CHARS_TARGET = 0.35;
const PLAYWRIGHT_MCP = join(ROOT, 'node_modules/@playwright/mcp/cli.js');

interface McpAnswer {
  content?: Array<{ type: string; text?: string }>;
  isError?: boolean;
}

/** Ends a process and waits (bounded) until it has exited, so it no longer writes its profile. */
async function stopProcess(child: ChildProcess, timeoutMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill();
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)))]);
  clearTimeout(timer);
}

/** Chromium with a DevTools port, for Playwright MCP to drive and the bench to read. */
async function chromiumWithDevTools(profile: string): Promise<{ endpoint: string; process: ChildProcess }> {
  const child = spawn(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--window-size=1100,800',
      ...CHROMIUM_ARGS,
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const endpoint = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`Chromium gave no DevTools address:\n${seen}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const address = /DevTools listening on (ws:\/\/\S+)/.exec(seen)?.[1];
      if (address) {
        clearTimeout(timer);
        resolve(address);
      }
    });
    child.once('exit', (code) => reject(new Error(`Chromium exited (${code}):\n${seen}`)));
  });
  return { endpoint, process: child };
}

/** Playwright MCP prints a ref on every line, so its finds always hand one out. */
function refOf(handle: Handle | undefined): string | undefined {
  if (handle && !('ref' in handle)) throw new Error('Playwright MCP acts by ref only');
  return handle?.ref;
}

function playwrightCalls(step: Step, on: string, to: string | undefined, pathsOf: (files: TaskFile[]) => string[]) {
  const element = describeTarget(step.on);
  const click: ToolCall = { tool: 'browser_click', args: { element, target: on } };
  switch (step.do) {
    case 'hover':
      return [{ tool: 'browser_hover', args: { element, target: on } }];
    case 'click':
      if (step.double) return [{ tool: 'browser_click', args: { element, target: on, doubleClick: true } }];
      return step.dialog ? [click, { tool: 'browser_handle_dialog', args: { ...step.dialog } }] : [click];
    case 'type':
      return [
        {
          tool: 'browser_type',
          args: { element, target: on, text: step.text, ...(step.submit ? { submit: true } : {}) },
        },
      ];
    case 'select_option':
      return [{ tool: 'browser_select_option', args: { element, target: on, values: [step.label] } }];
    case 'press_key':
      return [click, { tool: 'browser_press_key', args: { key: step.key } }];
    case 'drag':
      return [
        {
          tool: 'browser_drag',
          args: { startElement: element, startTarget: on, endElement: describeTarget(step.to), endTarget: to },
        },
      ];
    case 'upload_file':
      return [click, { tool: 'browser_file_upload', args: { paths: pathsOf(step.files) } }];
  }
}

interface PlaywrightMcp extends Adapter {
  shutdown(): Promise<void>;
}

async function playwrightMcp(): Promise<PlaywrightMcp> {
  const scratch = mkdtempSync(join(tmpdir(), 'tabwright-tasks-playwright-'));
  const files = join(scratch, 'files');
  mkdirSync(files);
  const browserProcess = await chromiumWithDevTools(join(scratch, 'profile'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      PLAYWRIGHT_MCP,
      '--cdp-endpoint',
      browserProcess.endpoint,
      // The task files live outside its workspace (the scratch directory's own folder).
      '--allow-unrestricted-file-access',
      '--output-dir',
      join(scratch, 'output'),
    ],
    cwd: scratch,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'tabwright-tasks-bench', version: '1.0.0' });
  await client.connect(transport);
  const browser: Browser = await chromium.connectOverCDP(browserProcess.endpoint);
  const context: BrowserContext = browser.contexts()[0]!;
  // A Playwright client with no dialog listener dismisses dialogs itself: this one only watches,
  // so Playwright MCP's browser_handle_dialog answers them.
  context.on('dialog', () => undefined);
  // An action's answer links to the page snapshot it wrote (relative to the working directory).
  const linkedChars = (text: string) =>
    [...text.matchAll(/\[Snapshot\]\(([^)\s]+)\)/g)].reduce(
      (total, [, path]) => total + readFileSync(resolve(scratch, path!), 'utf8').length,
      0,
    );
  const raw = async (tool: string, args: Record<string, unknown>) => {
    const answer = (await client.callTool({ name: tool, arguments: args })) as McpAnswer;
    const text = (answer.content ?? []).map((block) => block.text ?? '').join('\n');
    return { text, isError: answer.isError === true || text.startsWith('### Error'), linkedChars: linkedChars(text) };
  };
  const pathsOf = (list: TaskFile[]) =>
    list.map((file) => {
      const path = join(files, file.name);
      writeFileSync(path, file.text);
      return path;
    });
  return {
    label: 'Playwright MCP',
    async open(url) {
      const opened = await raw('browser_navigate', { url });
      if (opened.isError) throw new Error(`browser_navigate failed: ${opened.text}`);
      for (let waited = 0; waited < 10_000; waited += 50) {
        const page = context.pages().find((candidate) => candidate.url() === url);
        if (page) return page;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`no page at ${url}`);
    },
    call: ({ tool, args }) => raw(tool, args),
    find: (target) => ({ tool: 'browser_find', args: { text: target.name } }),
    act: (step, refs) => playwrightCalls(step, refOf(refs.on)!, refOf(refs.to), pathsOf),
    async recover() {
      await raw('browser_handle_dialog', { accept: false }).catch(() => undefined);
      await raw('browser_file_upload', {}).catch(() => undefined);
    },
    close: async () => undefined,
    async shutdown() {
      await client.close().catch(() => undefined);
      await browser.close().catch(() => undefined);
      await stopProcess(browserProcess.process, 10_000);
      try {
        rmSync(scratch, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch (error) {
        // A helper process of Chromium's may outlive it and still write there: the results stand.
        console.warn(`Could not remove ${scratch}: ${(error as Error).message}`);
      }
    },
  };
}

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
      writeFileSync(join(dir, name), head + answer.text);
      return answer;
    },
  };
}

interface Tally {
  runs: TaskRun[];
}

const done = (tally: Tally) => tally.runs.filter((run) => run.completed).length;
const med = (tally: Tally, key: 'chars' | 'withLinked' | 'calls' | 'ms') => median(tally.runs.map((run) => run[key]));

export const bench: Bench = {
  name: 'tasks',
  async run(): Promise<BenchTable[]> {
    const routes = await taskPageRoutes();
    const rig = await startActionRig({ dist: process.env.TABWRIGHT_TEST_DIST ?? join(ROOT, 'dist-test'), routes });
    const ours = tabwrightAdapter(rig);
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
        med(mine, 'ms').toFixed(0),
        med(other, 'ms').toFixed(0),
        ratio(med(mine, 'ms'), med(other, 'ms')),
      ];
    });
    const sum = (side: 'ours' | 'theirs', pick: (tally: Tally) => number) =>
      tallies.reduce((total, tally) => total + pick(tally[side]), 0);
    const chars = {
      ours: sum('ours', (t) => med(t, 'chars')),
      theirs: sum('theirs', (t) => med(t, 'chars')),
      theirsLinked: sum('theirs', (t) => med(t, 'withLinked')),
    };
    const ms = { ours: sum('ours', (t) => med(t, 'ms')), theirs: sum('theirs', (t) => med(t, 'ms')) };
    rows.push([
      'total',
      `${TASKS.length} tasks`,
      `${sum('ours', done)}/${TASKS.length * RUNS}`,
      `${sum('theirs', done)}/${TASKS.length * RUNS}`,
      Math.round(chars.ours),
      Math.round(chars.theirs),
      ratio(chars.ours, chars.theirs),
      Math.round(chars.theirsLinked),
      ratio(chars.ours, chars.theirsLinked),
      sum('ours', (t) => med(t, 'calls')),
      sum('theirs', (t) => med(t, 'calls')),
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

    return [
      {
        title: 'Tasks: the same plans through Tabwright and Playwright MCP',
        notes: [
          `${TASKS.length} tasks on pages built from npm component libraries (${libraries}) and native controls; ` +
            `${RUNS} run(s) each, alternating which contender goes first.`,
          'Tabwright: tools called from the broker side of the real tunnel (broker → panel → page), gates on, ' +
            'writes confirmed for the site once. Playwright MCP 0.0.83 over stdio, driving /usr/bin/chromium ' +
            'through --cdp-endpoint, with --allow-unrestricted-file-access for the upload files.',
          'One plan per task for both; each target is found with one find call (find / browser_find); the step ' +
            'mapping is in bench/tasks.bench.ts. "completed": every call answered without an error and the ' +
            "page's state afterwards, read by the bench through the library's own API, is the expected one.",
          'chars: characters of every answer the agent read; calls: tool calls; ms: first call to last ' +
            'answer. Medians per task over the runs; the total row sums the medians. The first run includes ' +
            "the one confirmation per tool that Tabwright's panel asks for (allowed for the site after that). " +
            'Target: Tabwright completes every task.',
          "Playwright MCP's action answers do not show the page afterwards: they link to a snapshot file it " +
            'wrote. "+ snapshots" adds those files, which an agent reads to see what the action did — what ' +
            "Tabwright's answers say inline as a diff. The characters target (≤ 0.35×) is judged against that " +
            'reference, the same information; the ratio to the answers alone is printed beside it.',
        ],
        goals: [
          {
            measure: 'tasks completed',
            ours: `${sum('ours', done)}/${TASKS.length * RUNS}`,
            reference: `Playwright MCP ${sum('theirs', done)}/${TASKS.length * RUNS}`,
            now: `${sum('ours', done)}/${TASKS.length * RUNS}`,
            goal: 'every task',
            met: sum('ours', done) === TASKS.length * RUNS,
          },
          {
            measure: 'characters an agent reads per task',
            ours: `${Math.round(chars.ours)} chars`,
            reference:
              `Playwright MCP ${Math.round(chars.theirsLinked)} with the snapshots it links ` +
              `(${Math.round(chars.theirs)} in its answers alone)`,
            now: `${ratio(chars.ours, chars.theirsLinked)} (${ratio(chars.ours, chars.theirs)} of the answers alone)`,
            goal: `≤ ${CHARS_TARGET}×`,
            met: chars.ours <= CHARS_TARGET * chars.theirsLinked,
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
          'ms Tabwright',
          'ms PW MCP',
          'ms ratio',
        ],
        rows,
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
