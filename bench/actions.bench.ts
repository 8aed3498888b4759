/**
 * Action round trip against Playwright MCP, on the same fixture page in one run. Ours goes through
 * the real tunnel: the project's broker in-process, the built test extension in Chromium with an
 * agent added through the panel, and `click` / `type` called from the broker's side (broker → panel
 * → page → panel → broker). Playwright MCP (`@playwright/mcp`, its own headless Chromium) is driven
 * over stdio with the MCP SDK's client, doing `browser_click` / `browser_type` on the same
 * elements. Both are timed the same way: wall clock around one tool call, from the caller's side.
 * Calls alternate between the two so drift on a busy machine hits both alike.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { refIn, startActionRig, type ActionRig } from '../test/e2e/actions-rig';
import { CHROMIUM, ROOT } from '../test/e2e/harness';
import type { Bench } from './run';
import { median, percentile, ratio, type BenchTable } from './table';

const RUNS = Number(process.env.ACTIONS_BENCH_RUNS ?? 30);
const WARMUP = 2;
const PAGE = '/actions/bench.html';
const PLAYWRIGHT_MCP = join(ROOT, 'node_modules/@playwright/mcp/cli.js');

interface ToolAnswer {
  content?: Array<{ type: string; text?: string }>;
  isError?: boolean;
}

const textOf = (answer: ToolAnswer) => (answer.content ?? []).map((block) => block.text ?? '').join('\n');

interface Sample {
  ms: number;
  chars: number;
  visible: boolean;
}

interface Contender {
  label: string;
  click(n: number): Promise<Sample>;
  type(n: number): Promise<Sample>;
  /** A snapshot call after the action, for answers that do not show the page (Playwright MCP's). */
  look?(expected: RegExp): Promise<Sample>;
  close(): Promise<void>;
}

async function timed(call: () => Promise<ToolAnswer>, expected: RegExp): Promise<Sample> {
  const started = performance.now();
  const answer = await call();
  const ms = performance.now() - started;
  const text = textOf(answer);
  if (answer.isError) throw new Error(`tool error: ${text}`);
  return { ms, chars: text.length, visible: expected.test(text) };
}

/** What the page shows after the nth click and after typing the nth name, as each snapshot writes it. */
const clicked = (n: number) => new RegExp(`status "${n}"|"${n}"`);
const greeted = (n: number) => new RegExp(`Customer: Ada ${n}\\b`);

async function tabwright(rig: ActionRig): Promise<Contender> {
  await rig.open(PAGE);
  const snapshot = textOf(await rig.call('snapshot'));
  const count = refIn(snapshot, /button "Count"/);
  const name = refIn(snapshot, /textbox "Customer name"/);
  return {
    label: 'Tabwright (through the tunnel)',
    click: (n) => timed(() => rig.call('click', { ref: count }), clicked(n)),
    type: (n) => timed(() => rig.call('type', { ref: name, text: `Ada ${n}` }), greeted(n)),
    close: async () => undefined,
  };
}

async function playwrightMcp(url: string, label: string, extraArgs: string[] = []): Promise<Contender> {
  // Playwright MCP saves snapshots as files; keep them out of the working tree.
  const output = mkdtempSync(join(tmpdir(), 'tabwright-playwright-mcp-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    // Root (this machine) needs --no-sandbox; --isolated keeps two instances off one profile directory.
    args: [
      PLAYWRIGHT_MCP,
      '--executable-path',
      CHROMIUM,
      '--headless',
      '--no-sandbox',
      '--isolated',
      '--output-dir',
      output,
      ...extraArgs,
    ],
    cwd: output,
    stderr: 'ignore',
  });
  const client = new Client({ name: 'tabwright-bench', version: '1.0.0' });
  await client.connect(transport);
  const call = (name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args }) as Promise<ToolAnswer>;
  await call('browser_navigate', { url });
  const snapshot = textOf(await call('browser_snapshot', {}));
  const count = refIn(snapshot, /button "Count"/);
  const name = refIn(snapshot, /textbox "Customer name"/);
  return {
    label,
    click: (n) => timed(() => call('browser_click', { element: 'Count button', target: count }), clicked(n)),
    type: (n) =>
      timed(() => call('browser_type', { element: 'Customer name field', target: name, text: `Ada ${n}` }), greeted(n)),
    look: (expected) => timed(() => call('browser_snapshot', {}), expected),
    close: async () => {
      await client.close();
      rmSync(output, { recursive: true, force: true });
    },
  };
}

interface Series {
  label: string;
  click: Sample[];
  type: Sample[];
}

/** An action followed by a snapshot, counted as one: what it takes to see the change. */
function plus(action: Sample, look: Sample): Sample {
  return { ms: action.ms + look.ms, chars: action.chars + look.chars, visible: look.visible };
}

function row(series: Series, action: 'click' | 'type', baseline: Series | undefined): Array<string | number> {
  const samples = series[action];
  const ms = samples.map((s) => s.ms);
  const chars = samples.map((s) => s.chars);
  const visible = samples.filter((s) => s.visible).length;
  const base = baseline?.[action].map((s) => s.ms);
  return [
    action,
    series.label,
    median(ms).toFixed(0),
    percentile(ms, 95).toFixed(0),
    Math.round(median(chars)),
    `${visible}/${samples.length}`,
    base ? ratio(median(ms), median(base)) : '—',
  ];
}

export const bench: Bench = {
  name: 'actions',
  async run(): Promise<BenchTable[]> {
    const rig = await startActionRig({ dist: process.env.TABWRIGHT_TEST_DIST ?? join(ROOT, 'dist-test') });
    const url = rig.fixtures.url(PAGE);
    const contenders: Contender[] = [];
    const series: Series[] = [];
    try {
      contenders.push(await tabwright(rig));
      contenders.push(await playwrightMcp(url, 'Playwright MCP (defaults)'));
      contenders.push(
        await playwrightMcp(url, 'Playwright MCP --timeout-settle 0 (reference)', ['--timeout-settle', '0']),
      );
      const [ours, playwright, unsettled] = contenders as [Contender, Contender, Contender];
      const seeing: Series = { label: 'Playwright MCP (defaults) + browser_snapshot to see it', click: [], type: [] };
      series.push(
        ...[ours, playwright].map((c) => ({ label: c.label, click: [] as Sample[], type: [] as Sample[] })),
        seeing,
        { label: unsettled.label, click: [], type: [] },
      );
      // Warm-up calls answer the first confirmation and let both sides compile their code paths.
      for (let n = 1; n <= WARMUP + RUNS; n++) {
        const keep = n > WARMUP;
        for (const action of ['click', 'type'] as const) {
          const expected = action === 'click' ? clicked(n) : greeted(n);
          const mine = await ours[action](n);
          const theirs = await playwright[action](n);
          const looked = await playwright.look!(expected);
          const reference = await unsettled[action](n);
          if (!keep) continue;
          series[0]![action].push(mine);
          series[1]![action].push(theirs);
          series[2]![action].push(plus(theirs, looked));
          series[3]![action].push(reference);
        }
      }
    } finally {
      for (const contender of contenders) await contender.close().catch(() => undefined);
      await rig.close().catch(() => undefined);
    }
    const baseline = series[1];
    return [
      {
        title: 'Actions: one tool call, from the caller, until the result is back',
        notes: [
          `Same fixture page (${PAGE}: nav, a 25-row table, a counter and a text field), ${RUNS} calls each after ` +
            `${WARMUP} warm-ups, calls alternating between contenders.`,
          'Tabwright: broker → panel → page → panel → broker over the real ACP socket, gates on (act mode, allowed ' +
            'site, confirmation granted for the site once); the answer is the action line plus the snapshot diff.',
          'Playwright MCP: @playwright/mcp over stdio, --executable-path /usr/bin/chromium --headless (plus ' +
            '--no-sandbox, needed as root, and --isolated, so two instances do not share a profile). Its action ' +
            'answer shows the code it ran and links to a snapshot file rather than showing the page, so one row ' +
            'adds the browser_snapshot call an agent needs to see the change. It waits a fixed 500 ms after a ' +
            'click (--timeout-settle, default) and not after filling a field; the last rows set the wait to 0.',
          '"change shown": calls whose answer shows the new counter value or greeting. Target: our median ≤ 0.5× ' +
            'Playwright MCP (defaults), with the change shown.',
        ],
        columns: ['action', 'who', 'median ms', 'p95 ms', 'chars (median)', 'change shown', 'vs Playwright MCP'],
        rows: (['click', 'type'] as const).flatMap((action) =>
          series.map((s) => row(s, action, s === baseline ? undefined : baseline)),
        ),
      },
    ];
  },
};
