/**
 * Agents at work in tabs that are not in front, in Chromium run as a person runs it (see
 * background-rig.ts): their tabs hidden, without focus, their timers held back. Two agents finish
 * multi-step tasks (a form, a dialog, an upload, navigations) in their own tabs at the same time
 * while the person types in a third; no agent's call activates a tab or moves the window's focus,
 * while a call that asks for it (`new_tab` with `active: true`) does.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackgroundRig, textOf, type BackgroundRig } from './background-rig';
import { backgroundAdapter, type Controls } from './background-tasks';
import { taskPageRoutes } from './tasks-pages';
import { runTask, type TaskRun } from './tasks-plan';
import { TASKS } from './tasks-suite';

/**
 * The outline's label in `page`, read in Tabwright's own isolated world, the only place its closed
 * shadow root can be opened from.
 */
async function outlineReader(page: Page, extensionName: string) {
  const cdp = await page.context().newCDPSession(page);
  const contexts: Array<{ id: number; name: string; auxData?: { type?: string } }> = [];
  cdp.on('Runtime.executionContextCreated', ({ context }) => contexts.push(context));
  await cdp.send('Runtime.enable');
  return {
    async text(): Promise<string | null> {
      // Chrome names an extension's isolated world after the extension.
      const world = contexts.findLast(
        (context) => context.auxData?.type === 'isolated' && context.name === extensionName,
      );
      if (!world) return null;
      const { result } = await cdp.send('Runtime.evaluate', {
        contextId: world.id,
        returnByValue: true,
        expression: `(() => {
          const host = document.querySelector('tabwright-outline');
          return host ? chrome.dom.openOrClosedShadowRoot(host).textContent : null;
        })()`,
      });
      return (result.value as string | null) ?? null;
    },
    close: () => cdp.detach(),
  };
}

const task = (id: string) => TASKS.find((candidate) => candidate.id === id)!;

/** What a tab in the background must show before a task runs in it. */
function expectBackground(checked: Controls): void {
  expect(checked.visibility).toBe('hidden');
  expect(checked.focus).toBe(false);
  // 10 ms timers for two seconds: ~200 steps in front, a few when Chrome aligns them to seconds.
  expect(checked.steps).toBeLessThanOrEqual(6);
}

describe('agents in background tabs', () => {
  let rig: BackgroundRig;

  beforeAll(async () => {
    rig = await startBackgroundRig({ routes: await taskPageRoutes() });
    // What the person's window sees happen: tabs activated, windows focused.
    await rig.panel.evaluate(`(() => {
      window.__seen = [];
      chrome.tabs.onActivated.addListener((info) => window.__seen.push('activated ' + info.tabId));
      chrome.windows.onFocusChanged.addListener((id) => window.__seen.push('focused ' + id));
    })()`);
  });
  afterAll(async () => rig?.close());

  const seen = () => rig.panel.evaluate<string[]>('window.__seen');

  it('finishes two agents’ tasks at once in their own hidden tabs while the person types in theirs', async () => {
    const [alpha, beta] = rig.agents as [(typeof rig.agents)[0], (typeof rig.agents)[0]];
    const checks: Controls[] = [];
    const timings: Array<{ tool: string; pageMs: number; settleMs?: number }> = [];
    const plans = [
      { agent: alpha, tasks: ['native-contact', 'native-confirm', 'native-file'] },
      { agent: beta, tasks: ['native-prompt', 'native-number', 'native-alert'] },
    ];
    const personText = 'the person keeps typing while the agents work';
    const personField = rig.person.getByRole('textbox', { name: 'Text' });
    let agentsDone = false;
    const typing = (async () => {
      while (!agentsDone) {
        await personField.fill('');
        await personField.pressSequentially(personText, { delay: 20 });
      }
    })();
    const runs = await Promise.all(
      plans.map(async ({ agent, tasks }) => {
        const adapter = backgroundAdapter(rig, agent, (checked) => checks.push(checked));
        const done: TaskRun[] = [];
        for (const id of tasks) done.push(await runTask(task(id), adapter, rig.fixtures.allowed));
        const closed = await agent.call('close_tab', { tabId: adapter.tabId() });
        expect(closed.isError, textOf(closed)).toBeFalsy();
        timings.push(...adapter.timings);
        return done;
      }),
    ).finally(() => (agentsDone = true));
    await typing;

    for (const run of runs.flat()) expect(run.failure, JSON.stringify(run)).toBeUndefined();
    expect(checks).toHaveLength(6);
    for (const checked of checks) expectBackground(checked);
    expect(await personField.inputValue()).toBe(personText);
    expect(await rig.person.evaluate(() => document.visibilityState)).toBe('visible');
    expect(await seen()).toEqual([]);
    // Each action settled by Tabwright's clock: beats of ~16 ms and a 300 ms idle wait, where the
    // page's own timers would have been held to a second.
    expect(timings.length).toBeGreaterThanOrEqual(8);
    for (const timing of timings) expect(timing.settleMs ?? 0, JSON.stringify(timing)).toBeLessThan(800);
  });

  it('activates a tab only when a call asks for it and the person confirms it', async () => {
    const [alpha] = rig.agents;
    const opened = await alpha!.call('new_tab', { url: rig.fixtures.url('/index.html?front'), active: true });
    expect(opened.isError, textOf(opened)).toBeFalsy();
    const tabId = (opened.structuredContent as { tabId: number }).tabId;
    await expect.poll(seen).toContain(`activated ${tabId}`);
    expect(await rig.person.evaluate(() => document.visibilityState)).toBe('hidden');
    await rig.person.bringToFront();
  });

  it('makes an agent’s write wait while the person types in its tab, and go on once they stop; reads go on', async () => {
    const [alpha] = rig.agents;
    const url = rig.fixtures.url('/actions/form.html?shared');
    const opened = await alpha!.call('new_tab', { url });
    expect(opened.isError, textOf(opened)).toBeFalsy();
    const page = rig.launched.context.pages().find((candidate) => candidate.url() === url)!;
    const found = textOf(await alpha!.call('find', { text: 'Text' }));
    const ref = /textbox "Text" \[(\w+)\]/.exec(found)![1];
    // The person comes to the tab and types in it for a while.
    await page.bringToFront();
    const email = page.getByRole('textbox', { name: 'Email' });
    await email.click();
    const typing = email.pressSequentially('person@example.test', { delay: 150 }).then(() => performance.now());
    await new Promise((resolve) => setTimeout(resolve, 300));

    const started = performance.now();
    const typed = alpha!.call('type', { ref, text: 'written by the agent' });
    // A read goes on meanwhile.
    const read = await alpha!.call('snapshot');
    expect(read.isError, textOf(read)).toBeFalsy();
    const readMs = performance.now() - started;
    // The outline names the agent as waiting for the person.
    const outline = await outlineReader(page, 'Tabwright');
    await expect.poll(outline.text, { timeout: 10_000 }).toBe('Alpha is waiting for you to finish here');
    const personStopped = await typing;
    const result = await typed;
    const ended = performance.now();
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(readMs).toBeLessThan(personStopped - started);
    // The write waited for the person to stop and then a second of quiet.
    expect(ended - personStopped).toBeGreaterThanOrEqual(900);
    expect(await page.getByRole('textbox', { name: 'Text' }).inputValue()).toBe('written by the agent');
    expect(await email.inputValue()).toBe('person@example.test');
    await outline.close();
    await rig.person.bringToFront();
  });
});
