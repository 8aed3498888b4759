/**
 * Streaming render cost: a 200 KB markdown reply with code blocks and tables streamed in 4,000
 * chunks into the real panel (built test extension, Chromium) by a real ACP peer over a real
 * WebSocket, against the same reply sent as one chunk and so rendered once. Both go through the
 * whole path: socket, SDK, chat model, transcript, markdown-it, DOMPurify, highlight.js.
 *
 * Everything is read from a CDP trace of the panel's main thread (script, style and layout, all
 * tasks, the longest task), cross-checked with a PerformanceObserver for long tasks. Targets:
 * streamed script ≤ 1.5× once, and no task over 50 ms.
 */
import type { CDPSession, Page } from 'playwright-core';
import { addAgentThroughForm, launchWithExtension, openPanelTab, sendMessage } from '../test/e2e/harness';
import { startShowcasePeer } from '../test/peers/showcase-peer';
import { benchmarkReply } from './render-doc';
import type { Bench } from './run';
import { median, ratio, spread, type BenchTable, type Goal } from './table';

const RUNS = Number(process.env.RENDER_BENCH_RUNS ?? 3);
const CHUNKS = 4_000;
/** A restored history as big as the panel keeps: this many replies of about 5 KB each. */
const RESTORED = 300;
const LONG_TASK_MS = 50;

interface Measured {
  scriptMs: number;
  styleLayoutMs: number;
  busyMs: number;
  longestTaskMs: number;
  /** The same, counting only the CPU time the main thread got: what a busy machine cannot inflate. */
  longestTaskCpuMs: number;
  longTasks: number;
  frames: number;
  wallMs: number;
  html: string;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread (CPU) time of a complete event, where the trace has it. */
  tdur?: number;
  args?: { name?: string; data?: { frames?: Array<{ url: string; processId: number }> } };
}

/** Events that run JavaScript; what they spend in nested style and layout is not counted as script. */
const SCRIPT_EVENTS = new Set([
  'FunctionCall',
  'EvaluateScript',
  'TimerFire',
  'FireAnimationFrame',
  'FireIdleCallback',
  'EventDispatch',
  'RunMicrotasks',
  'v8.run',
  'V8.Execute',
]);
const STYLE_LAYOUT_EVENTS = new Set(['UpdateLayoutTree', 'Layout']);

type Interval = [number, number];

function union(intervals: Interval[]): Interval[] {
  const sorted = [...intervals].sort((a, b) => a[0] - b[0]);
  const merged: Interval[] = [];
  for (const [start, end] of sorted) {
    const last = merged.at(-1);
    if (last && start <= last[1]) last[1] = Math.max(last[1], end);
    else merged.push([start, end]);
  }
  return merged;
}

const total = (intervals: Interval[]) => intervals.reduce((sum, [start, end]) => sum + end - start, 0);

function overlap(a: Interval[], b: Interval[]): number {
  let sum = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    const start = Math.max(a[i]![0], b[j]![0]);
    const end = Math.min(a[i]![1], b[j]![1]);
    if (end > start) sum += end - start;
    if (a[i]![1] < b[j]![1]) i++;
    else j++;
  }
  return sum;
}

async function traced(cdp: CDPSession, work: () => Promise<void>): Promise<TraceEvent[]> {
  const events: TraceEvent[] = [];
  const collect = (data: { value: object[] }) => void events.push(...(data.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  await cdp.send('Tracing.start', {
    categories: 'toplevel,devtools.timeline,disabled-by-default-devtools.timeline,v8.execute',
    transferMode: 'ReportEvents',
  });
  await work();
  const complete = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.end');
  await complete;
  cdp.off('Tracing.dataCollected', collect);
  return events;
}

/** Main-thread figures of the panel's renderer, from a trace. */
function mainThread(events: TraceEvent[], extensionId: string) {
  const frames = events.flatMap((event) => event.args?.data?.frames ?? []);
  const pid = frames.find((frame) =>
    frame.url.startsWith(`chrome-extension://${extensionId}/src/sidepanel/`),
  )?.processId;
  const main = events.find(
    (event) =>
      event.ph === 'M' && event.name === 'thread_name' && event.pid === pid && event.args?.name === 'CrRendererMain',
  );
  if (pid === undefined || !main) throw new Error('could not find the panel main thread in the trace');
  const mine = events.filter((event) => event.pid === pid && event.tid === main.tid && event.ph === 'X' && event.dur);
  const span = (event: TraceEvent): Interval => [event.ts, event.ts + event.dur!];
  const tasks = mine.filter((event) => event.name === 'RunTask');
  const script = union(mine.filter((event) => SCRIPT_EVENTS.has(event.name)).map(span));
  const styleLayout = union(mine.filter((event) => STYLE_LAYOUT_EVENTS.has(event.name)).map(span));
  return {
    scriptMs: (total(script) - overlap(script, styleLayout)) / 1000,
    styleLayoutMs: total(styleLayout) / 1000,
    busyMs: total(union(tasks.map(span))) / 1000,
    // Folded, not spread: a long trace has more tasks than a call may take arguments.
    longestTaskMs: tasks.reduce((most, event) => Math.max(most, event.dur! / 1000), 0),
    longestTaskCpuMs: tasks.reduce((most, event) => Math.max(most, (event.tdur ?? event.dur!) / 1000), 0),
    frames: mine.filter((event) => event.name === 'FireAnimationFrame').length,
  };
}

/**
 * Streams `text` into the panel's chat model in the page, each chunk in a task of its own, as
 * socket messages arrive. A string, so the Node-side transpiler adds nothing to it.
 */
const FEED = `async ({ text, chunks, delayMs }) => {
  const chat = globalThis.tabwrightChat;
  const size = Math.ceil(text.length / chunks);
  const channel = new MessageChannel();
  const yieldTask = () =>
    delayMs > 0
      ? new Promise((resolve) => setTimeout(resolve, delayMs))
      : new Promise((resolve) => {
          channel.port1.onmessage = resolve;
          channel.port2.postMessage(null);
        });
  chat.startTurn('bench-in-page', 'Bench');
  for (let at = 0; at < text.length; at += size) {
    chat.applyUpdate('bench-in-page', 'Bench', {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: text.slice(at, at + size) },
    });
    await yieldTask();
  }
  chat.endTurn('bench-in-page', { stopReason: 'end_turn' });
}`;

async function measure(
  panel: Page,
  cdp: CDPSession,
  extensionId: string,
  drive: () => Promise<void>,
): Promise<Measured> {
  await panel.getByRole('button', { name: 'Clear screen' }).click();
  await panel.evaluate(() => {
    const w = window as unknown as { longTasks: number[]; longTaskObserver?: PerformanceObserver };
    w.longTasks = [];
    w.longTaskObserver ??= new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
    });
    w.longTaskObserver.observe({ type: 'longtask' });
  });
  const started = Date.now();
  const events = await traced(cdp, async () => {
    await drive();
    // Done once the reply is finished and rendered (`aria-busy` false). Polled slowly: a selector
    // query every frame over a long reply would be measured too.
    await panel.waitForFunction(
      () => document.querySelector('article.message.agent.done[aria-busy="false"]') !== null,
      null,
      { polling: 500, timeout: 300_000 },
    );
  });
  const wallMs = Date.now() - started;
  const longTasks = await panel.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  const figures = mainThread(events, extensionId);
  return {
    ...figures,
    longestTaskMs: Math.max(figures.longestTaskMs, ...longTasks),
    longTasks: longTasks.length,
    wallMs,
    html: await renderedBody(panel),
  };
}

/**
 * The finished reply's markup with each code block reduced to its text: code is highlighted only
 * near the view (and stays so until it is far away), so which blocks carry highlight spans depends
 * on where the view has been, not on how the text arrived.
 */
function renderedBody(panel: Page): Promise<string> {
  return panel.evaluate(() => {
    const body = document.querySelector('article.message.agent.done .body')!.cloneNode(true) as Element;
    for (const code of body.querySelectorAll('pre code')) code.replaceChildren(code.textContent ?? '');
    return body.innerHTML;
  });
}

/** Stored history for the panel's window: `count` finished replies, each with prose and code. */
function storedHistory(count: number) {
  const items = Array.from({ length: count }, (_, n) => ({
    kind: 'agent',
    id: `restored-${n}`,
    at: 1_700_000_000_000 + n,
    agentId: 'bench-restored',
    agentName: 'Bench',
    segments: [{ kind: 'text', id: `restored-text-${n}`, text: `Reply ${n}.\n\n${benchmarkReply(5 * 1024)}` }],
    done: true,
  }));
  return { version: 1, savedAt: Date.now(), items, draft: '' };
}

/** Reopens the panel on a stored history and measures the main thread until every reply is rendered. */
async function measureRestore(panel: Page, cdp: CDPSession, extensionId: string): Promise<Measured> {
  await panel.evaluate(async (history) => {
    const windowId = (await chrome.windows.getCurrent()).id;
    await chrome.storage.local.set({ [`history:${windowId}`]: history });
  }, storedHistory(RESTORED));
  const started = Date.now();
  const events = await traced(cdp, async () => {
    await panel.reload();
    await panel.waitForFunction(
      (count) =>
        document.querySelectorAll('article.message.agent.done').length >= count &&
        document.querySelector('article.message.agent[aria-busy="true"]') === null,
      RESTORED,
      { polling: 500, timeout: 300_000 },
    );
  });
  const wallMs = Date.now() - started;
  const longTasks = await panel.evaluate(() => (window as unknown as { longTasks?: number[] }).longTasks ?? []);
  const figures = mainThread(events, extensionId);
  return {
    ...figures,
    longestTaskMs: Math.max(figures.longestTaskMs, ...longTasks),
    longTasks: longTasks.length,
    wallMs,
    html: '',
  };
}

export const bench: Bench = {
  name: 'render',
  async run(): Promise<BenchTable[]> {
    const reply = benchmarkReply();
    const peer = await startShowcasePeer({ documents: { reply } });
    const launched = await launchWithExtension();
    try {
      const panel = await openPanelTab(launched);
      await panel.setViewportSize({ width: 420, height: 860 });
      await addAgentThroughForm(panel, { name: 'Bench', url: peer.url, token: '' });
      await panel.getByRole('button', { name: /^Bench: connected/ }).waitFor({ timeout: 30_000 });
      const cdp = await launched.context.newCDPSession(panel);
      // Long tasks from the very start of a reload (the restore scenario) are seen too.
      await panel.addInitScript(() => {
        const w = window as unknown as { longTasks: number[]; longTaskObserver?: PerformanceObserver };
        w.longTasks = [];
        w.longTaskObserver = new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) w.longTasks.push(entry.duration);
        });
        w.longTaskObserver.observe({ type: 'longtask' });
      });
      const viaPeer = (chunks: number, delayMs: number) => () =>
        sendMessage(panel, `stream reply ${chunks} ${delayMs}`);
      const inPage = (chunks: number, delayMs: number) => async () => {
        await panel.evaluate(`(${FEED})(${JSON.stringify({ text: reply, chunks, delayMs })})`);
      };
      const scenarios = [
        { label: `peer → panel, ${CHUNKS} chunks, 2 ms apart`, chunks: CHUNKS, drive: viaPeer(CHUNKS, 2) },
        { label: `peer → panel, ${CHUNKS} chunks, back to back`, chunks: CHUNKS, drive: viaPeer(CHUNKS, 0) },
        { label: 'peer → panel, final text once (baseline)', chunks: 1, drive: viaPeer(1, 0) },
        { label: `in-page model, ${CHUNKS} chunks, 2 ms apart`, chunks: CHUNKS, drive: inPage(CHUNKS, 2) },
        { label: `in-page model, ${CHUNKS} chunks, back to back`, chunks: CHUNKS, drive: inPage(CHUNKS, 0) },
        { label: 'in-page model, final text once (baseline)', chunks: 1, drive: inPage(1, 0) },
      ];
      const results = new Map<string, Measured[]>(scenarios.map((s) => [s.label, []]));
      await measure(panel, cdp, launched.extensionId, viaPeer(1, 0)); // warm-up: code loaded, JIT warm
      for (let run = 0; run < RUNS; run++) {
        for (const scenario of scenarios) {
          results.get(scenario.label)!.push(await measure(panel, cdp, launched.extensionId, scenario.drive));
        }
      }
      const restores: Measured[] = [];
      for (let run = 0; run < RUNS; run++) restores.push(await measureRestore(panel, cdp, launched.extensionId));
      const expected = results.get(scenarios[2]!.label)![0]!.html;
      for (const [label, runs] of results) {
        if (runs.some((m) => m.html !== expected))
          throw new Error(`"${label}" rendered a different DOM from the baseline`);
      }
      const baseOf = (label: string) => {
        const runs = results.get(label)!;
        return { script: median(runs.map((m) => m.scriptMs)), busy: median(runs.map((m) => m.busyMs)) };
      };
      const rows = scenarios.map(({ label, chunks }, index) => {
        const base = baseOf(scenarios[index < 3 ? 2 : 5]!.label);
        const runs = results.get(label)!;
        const script = median(runs.map((m) => m.scriptMs));
        const busy = median(runs.map((m) => m.busyMs));
        return [
          label,
          script.toFixed(0),
          ratio(script, base.script),
          chunks > 1 ? (((script - base.script) / chunks) * 1000).toFixed(0) : '—',
          median(runs.map((m) => m.styleLayoutMs)).toFixed(0),
          busy.toFixed(0),
          ratio(busy, base.busy),
          Math.max(...runs.map((m) => m.longestTaskMs)).toFixed(1),
          Math.max(...runs.map((m) => m.longTasks)),
          median(runs.map((m) => m.frames)),
          (median(runs.map((m) => m.wallMs)) / 1000).toFixed(1),
        ];
      });
      const restoreLabel = `history restored on reopening: ${RESTORED} replies of 5 KB`;
      rows.push([
        restoreLabel,
        median(restores.map((m) => m.scriptMs)).toFixed(0),
        '—',
        '—',
        median(restores.map((m) => m.styleLayoutMs)).toFixed(0),
        median(restores.map((m) => m.busyMs)).toFixed(0),
        '—',
        Math.max(...restores.map((m) => m.longestTaskMs)).toFixed(1),
        Math.max(...restores.map((m) => m.longTasks)),
        median(restores.map((m) => m.frames)),
        (median(restores.map((m) => m.wallMs)) / 1000).toFixed(1),
      ]);
      const all = [...[...results.values()].flat(), ...restores];
      const longest = Math.max(...all.map((m) => m.longestTaskMs));
      const worst = [...results.entries(), [restoreLabel, restores] as const].map(
        ([label, runs]) => `${label}: ${Math.max(...runs.map((m) => m.longestTaskMs)).toFixed(0)}`,
      );
      const longestCpu = Math.max(...all.map((m) => m.longestTaskCpuMs));
      const worstCpu = [...results.entries(), [restoreLabel, restores] as const].map(
        ([label, runs]) => `${label}: ${Math.max(...runs.map((m) => m.longestTaskCpuMs)).toFixed(0)}`,
      );
      const streamed = results.get(scenarios[0]!.label)!.map((m) => m.scriptMs);
      const once = median(results.get(scenarios[2]!.label)!.map((m) => m.scriptMs));
      const streamRatio = median(streamed) / once;
      const goals: Goal[] = [
        {
          measure: `streaming ${(reply.length / 1024).toFixed(0)} KB reply, ${CHUNKS} chunks (script)`,
          ours: `${median(streamed).toFixed(0)} ms (spread ${spread(streamed)})`,
          reference: `the same text rendered once ${once.toFixed(0)} ms`,
          now: ratio(median(streamed), once),
          goal: '≤ 1.5×',
          met: streamRatio <= 1.5,
        },
        {
          measure: 'longest main-thread task by CPU time, every scenario',
          ours: `${longestCpu.toFixed(0)} ms`,
          reference: worstCpu.join('; '),
          now: `${all.filter((m) => m.longestTaskCpuMs > LONG_TASK_MS).length} runs over`,
          goal: `none over ${LONG_TASK_MS} ms`,
          met: longestCpu <= LONG_TASK_MS,
        },
        {
          measure: 'longest main-thread task, every scenario',
          ours: `${longest.toFixed(0)} ms`,
          reference: worst.join('; '),
          now: `${all.filter((m) => m.longestTaskMs > LONG_TASK_MS).length} runs over`,
          goal: `none over ${LONG_TASK_MS} ms`,
          met: longest <= LONG_TASK_MS,
        },
      ];
      return [
        {
          goals,
          title: `Streaming render: ${(reply.length / 1024).toFixed(0)} KB markdown reply into the real panel`,
          notes: [
            'A real ACP peer streams over a real WebSocket into the built test extension in Chromium; the whole path counts (socket, SDK, model, view, markdown-it, DOMPurify, highlight.js).',
            "From a CDP trace of the panel's main thread: script = JS time less the style and layout it forces; busy = every task (script, style, layout, paint).",
            'Longest task = longest RunTask (trace) or long-task entry (PerformanceObserver), max over runs; long tasks = entries over 50 ms.',
            'Longest task by CPU time = the longest RunTask counting only the thread time the trace gives it: on a shared, busy machine wall-clock tasks also contain the time other processes held the cores.',
            'Extra per chunk = (script − baseline script) ÷ chunks: what each streamed message costs beyond rendering the text once (socket, SDK validation, model, and the task it arrives in).',
            `History restored: ${RESTORED} stored replies, the panel reloaded, until every reply is rendered (from the reload on).`,
            `Median of ${RUNS} runs. Every streamed run must leave the same DOM as the baseline (code blocks compared by their text: they are highlighted only near the view). Targets: streamed script ratio ≤ 1.5×, no task over ${LONG_TASK_MS} ms in any scenario.`,
          ],
          columns: [
            'scenario',
            'script ms',
            'script ratio',
            'extra per chunk µs',
            'style+layout ms',
            'busy ms',
            'busy ratio',
            'longest task ms',
            'tasks > 50 ms',
            'frames',
            'wall s',
          ],
          rows,
        },
      ];
    } finally {
      await launched.close();
      await peer.close();
    }
  },
};
