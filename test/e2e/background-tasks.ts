/**
 * The task plans carried out by an agent in a tab of its own that is not in front: its first task
 * opens the tab (`new_tab`, in the background or in the agent's own window), each later one
 * navigates it. Before each task the test checks the tab's state (`backgroundControls`).
 */
import type { Page } from 'playwright-core';
import { TIMING_META, type ActionTiming } from '../../src/contract/mcp';
import { backgroundControls, textOf, type BackgroundAgent, type BackgroundRig } from './background-rig';
import { waitFor } from './harness';
import type { Adapter } from './tasks-plan';
import { tabwrightCalls } from './tasks-tabwright';

export interface Controls {
  visibility: string;
  focus: boolean;
  steps: number;
}

export function backgroundAdapter(
  rig: BackgroundRig,
  agent: BackgroundAgent,
  controls: (checked: Controls) => void,
  /**
   * Where the agent's tab is: behind the person's tab in their window; brought to the front before
   * each task (the same work, in front, for comparison); or in the agent's own unfocused window.
   */
  place: 'background' | 'front' | 'own window' = 'background',
  /** Times the tab's timers (two seconds) before each task, or only before the first (a long suite). */
  timers: 'each' | 'first' = 'each',
): Adapter & { tabId(): number | undefined; timings: Array<ActionTiming & { tool: string }> } {
  const timings: Array<ActionTiming & { tool: string }> = [];
  const dialogs = new WeakMap<Page, string[]>();
  let tabId: number | undefined;
  let opened = 0;
  return {
    label: `Tabwright (${agent.name}, ${place === 'front' ? 'in front' : place})`,
    tabId: () => tabId,
    timings,
    async open(url) {
      // Each agent's address, and each visit's, is its own: the test tells the two agents' tabs apart,
      // and a page never comes back with what an earlier visit typed.
      const own = `${url}${url.includes('?') ? '&' : '?'}agent=${agent.name}&visit=${++opened}`;
      const answer =
        tabId === undefined
          ? await agent.call('new_tab', { url: own, ...(place === 'own window' ? { ownWindow: true } : {}) })
          : await agent.call('navigate', { url: own });
      if (answer.isError) throw new Error(`${agent.name} could not open ${own}: ${textOf(answer)}`);
      tabId ??= (answer.structuredContent as { tabId: number }).tabId;
      let page: Page | undefined;
      await waitFor(() => (page = rig.launched.context.pages().find((p) => p.url() === own)) !== undefined);
      const seen: string[] = [];
      dialogs.set(page!, seen);
      page!.on('dialog', (dialog) => {
        seen.push(`${dialog.type()} "${dialog.message()}"`);
        void dialog.dismiss().catch(() => undefined);
      });
      if (place === 'front') await page!.bringToFront();
      controls(
        timers === 'each' || opened === 1
          ? await backgroundControls(page!)
          : {
              ...(await page!.evaluate<{ visibility: string; focus: boolean }>(
                '({ visibility: document.visibilityState, focus: document.hasFocus() })',
              )),
              steps: -1,
            },
      );
      return page!;
    },
    async call({ tool, args }) {
      const result = await agent.call(tool, args);
      const timing = (result._meta as Record<string, unknown> | undefined)?.[TIMING_META] as ActionTiming | undefined;
      if (timing) timings.push({ tool, ...timing });
      return { text: textOf(result), isError: result.isError === true };
    },
    read: () => ({ tool: 'snapshot', args: {} }),
    find: (target) => ({ tool: 'find', args: { text: target.name } }),
    actsByTarget: true,
    act: (step, refs) => tabwrightCalls(step, refs.on, refs.to),
    strayDialogs: (page) => dialogs.get(page) ?? [],
    close: async () => undefined,
  };
}
