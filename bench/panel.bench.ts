/**
 * The panel's own footprint: memory after a long conversation, and how fast it starts. Memory: a
 * thousand finished replies with code blocks fed into the real panel's chat model (test builds
 * expose it), rendered, garbage collected, then the JS heap (`performance.memory`, precise with
 * `--enable-precise-memory-info`) and the nodes in the document. Start: the panel closed and
 * opened again in a running browser, with an agent configured and a site allowed, timed from
 * opening it to the agent shown connected, and to the first snapshot served to that agent through
 * the tunnel (the page tab in front, as a user would have it).
 */
import type { Page } from 'playwright-core';
import type { PanelServer } from '../broker/panel-tools';
import { startActionRig, textOf } from '../test/e2e/actions-rig';
import { waitFor } from '../test/e2e/harness';
import type { Bench } from './run';
import { median, spread, type BenchTable, type Goal } from './table';

const MESSAGES = 1_000;
const STARTS = Number(process.env.PANEL_BENCH_STARTS ?? 5);
const BUDGET = { heapMb: 64, nodes: 60_000, connectedMs: 1_500, snapshotMs: 2_000 };

/** One finished reply with prose, inline code and a highlighted code block. */
const FEED_REPLIES = `async ({ count }) => {
  const chat = globalThis.tabwrightChat;
  const code = (n) => ['\`\`\`ts', \`export function step\${n}(input: number[]): number {\`,
    '  let total = 0;', '  for (const value of input) total += value * 2;', \`  return Math.max(total, \${n});\`, '}', '\`\`\`'].join('\\n');
  for (let n = 0; n < count; n++) {
    chat.startTurn('bench-memory', 'Bench');
    chat.applyUpdate('bench-memory', 'Bench', {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: \`Reply \${n}: the function \\\`step\${n}\\\` doubles each value.\\n\\n\${code(n)}\\n\\nThat is all.\` },
    });
    chat.endTurn('bench-memory', { stopReason: 'end_turn' });
    if (n % 20 === 19) await new Promise((resolve) => setTimeout(resolve, 0));
  }
}`;

async function memory(panel: Page): Promise<{ heapMb: number; nodes: number; elements: number }> {
  await panel.getByRole('button', { name: 'Clear screen' }).click();
  await panel.evaluate(`(${FEED_REPLIES})(${JSON.stringify({ count: MESSAGES })})`);
  await panel.waitForFunction(
    (count) =>
      document.querySelectorAll('article.message.agent.done').length >= count &&
      document.querySelector('article.message.agent[aria-busy="true"]') === null,
    MESSAGES,
    { polling: 500, timeout: 600_000 },
  );
  const cdp = await panel.context().newCDPSession(panel);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.detach();
  return panel.evaluate(() => {
    let nodes = 0;
    const walker = document.createTreeWalker(document, NodeFilter.SHOW_ALL);
    while (walker.nextNode()) nodes++;
    const heap = (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize;
    return { heapMb: heap / 2 ** 20, nodes, elements: document.getElementsByTagName('*').length };
  });
}

export const bench: Bench = {
  name: 'panel',
  async run(): Promise<BenchTable[]> {
    const rig = await startActionRig({ args: ['--enable-precise-memory-info'] });
    const connected: number[] = [];
    const served: number[] = [];
    let used: Awaited<ReturnType<typeof memory>>;
    try {
      const page = await rig.open('/actions/bench.html');
      const panelUrl = rig.panel.url();
      let panel = rig.panel;
      for (let run = 0; run < STARTS; run++) {
        const before = new Set(rig.broker.sessions.all().flatMap((session) => session.servers));
        await panel.close();
        const started = performance.now();
        panel = await rig.launched.context.newPage();
        const loading = panel.goto(panelUrl);
        await page.bringToFront();
        await loading;
        await panel.getByRole('button', { name: /Actor: connected/ }).waitFor({ timeout: 30_000 });
        connected.push(performance.now() - started);
        let server: PanelServer | undefined;
        await waitFor(
          () => {
            server = rig.broker.sessions
              .all()
              .flatMap((session) => session.servers)
              .find((candidate) => !before.has(candidate));
            return server !== undefined;
          },
          30_000,
          5,
        );
        const snapshot = textOf(await server!.call(`${server!.name}.snapshot`, {}));
        served.push(performance.now() - started);
        if (!snapshot.includes('Support desk')) throw new Error(`the first snapshot is not the page:\n${snapshot}`);
      }
      used = await memory(panel);
    } finally {
      await rig.close().catch(() => undefined);
    }
    const goals: Goal[] = [
      {
        measure: `panel JS heap after ${MESSAGES} replies with code`,
        ours: `${used.heapMb.toFixed(1)} MB`,
        reference: '—',
        now: `${((used.heapMb / BUDGET.heapMb) * 100).toFixed(0)}% of budget`,
        goal: `≤ ${BUDGET.heapMb} MB`,
        met: used.heapMb <= BUDGET.heapMb,
      },
      {
        measure: `panel DOM nodes after ${MESSAGES} replies with code`,
        ours: `${used.nodes} nodes (${used.elements} elements)`,
        reference: '—',
        now: `${((used.nodes / BUDGET.nodes) * 100).toFixed(0)}% of budget`,
        goal: `≤ ${BUDGET.nodes / 1000}k`,
        met: used.nodes <= BUDGET.nodes,
      },
      {
        measure: 'cold start: panel opened → agent connected',
        ours: `${median(connected).toFixed(0)} ms (spread ${spread(connected)})`,
        reference: '—',
        now: '—',
        goal: `≤ ${BUDGET.connectedMs / 1000} s`,
        met: median(connected) <= BUDGET.connectedMs,
      },
      {
        measure: 'cold start: panel opened → first snapshot served',
        ours: `${median(served).toFixed(0)} ms (spread ${spread(served)})`,
        reference: '—',
        now: '—',
        goal: `≤ ${BUDGET.snapshotMs / 1000} s`,
        met: median(served) <= BUDGET.snapshotMs,
      },
    ];
    return [
      {
        title: 'Panel: memory after a long conversation, and start',
        notes: [
          `Memory: ${MESSAGES} finished replies with a highlighted code block each, fed into the panel's chat model, ` +
            'rendered, then garbage collected (CDP) and read with performance.memory (--enable-precise-memory-info); ' +
            'nodes are every node in the document (elements, text, comments).',
          `Start: the panel closed and opened again ${STARTS} times in a running browser (agent configured, site ` +
            'allowed, the page tab brought to front at once), from opening to "connected" and to the first snapshot ' +
            'the agent is served through the tunnel.',
        ],
        columns: ['measure', 'median', 'spread', 'budget'],
        rows: [
          ['JS heap', `${used.heapMb.toFixed(1)} MB`, '—', `${BUDGET.heapMb} MB`],
          ['DOM nodes', used.nodes, '—', BUDGET.nodes],
          ['opened → connected', `${median(connected).toFixed(0)} ms`, spread(connected), `${BUDGET.connectedMs} ms`],
          ['opened → first snapshot', `${median(served).toFixed(0)} ms`, spread(served), `${BUDGET.snapshotMs} ms`],
        ],
        goals,
      },
    ];
  },
};
