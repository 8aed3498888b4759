import { z } from 'zod';
import { reportNewPage } from '../action-flow';
import { urlArgument } from '../tool-spec';
import { defineTool } from '../tool';
import { checkWebUrl } from './navigate';
import type { TabInfo } from '../browser-port';
import type { ToolContext } from '../tool';

/**
 * The caller's own window: the window of one of its tabs outside the panel's window, where the new
 * tab becomes the one shown; a window opened unfocused when it has none yet.
 */
async function openInOwnWindow(ctx: ToolContext, url: { url?: string }): Promise<TabInfo | { refusal: string }> {
  const open = ctx.browser.openInUnfocusedWindow?.bind(ctx.browser);
  if (!open) return { refusal: 'This browser cannot open a window of your own.' };
  for (const id of ctx.callerTabs.own()) {
    const tab = await ctx.browser.getTab(id);
    if (tab && tab.windowId !== ctx.windowId) return open({ ...url, windowId: tab.windowId }, ctx.signal);
  }
  return open(url, ctx.signal);
}

export const newTab = defineTool({
  name: 'new_tab',
  title: 'Open new tab',
  description:
    'Open a tab of your own, in the background unless `active` says otherwise, optionally loading an http(s) URL ' +
    "on an allowed site. It becomes the tab the other tools act on (for an agent that follows the user's tab, " +
    'only when it is brought to the front). With `ownWindow`, it opens in a window of your own instead, beside ' +
    "the user's but not focused: pages there draw frames (animations, requestAnimationFrame, transitions) and " +
    "screenshot works, while the user's window keeps its focus and its tab. Use it for pages that only move on " +
    'with frames, which a background tab does not draw. Returns the tab id, and the snapshot when it has a URL.',
  effect: 'write',
  scope: 'tabs',
  destination: urlArgument,
  input: z.object({
    url: z.string().min(1).max(8_192).optional().describe('Absolute http(s) URL to load; a blank tab when omitted'),
    active: z
      .boolean()
      .default(false)
      .describe('Bring the tab to the front, in front of what the user is doing (default false: the background)'),
    ownWindow: z
      .boolean()
      .default(false)
      .describe(
        "Open the tab in your own window, open but not focused, where pages render; the user's window keeps focus",
      ),
  }),
  async handle(args, ctx, response) {
    if (args.url !== undefined) {
      const problem = checkWebUrl(args.url);
      if (problem) return void response.error(problem);
      const refusal = await ctx.checkDestination(args.url);
      if (refusal) return void response.error(refusal);
    }
    if (args.ownWindow && args.active) {
      return void response.error(
        "`active` and `ownWindow` do not go together: your own window is never brought in front of the user's. " +
          'Choose one.',
      );
    }
    const url = args.url !== undefined ? { url: args.url } : {};
    let tab: TabInfo;
    if (args.ownWindow) {
      const opened = await openInOwnWindow(ctx, url);
      if ('refusal' in opened) return void response.error(opened.refusal);
      tab = opened;
    } else {
      tab = await ctx.browser.createTab({ ...url, active: args.active, windowId: ctx.windowId }, ctx.signal);
    }
    ctx.callerTabs.opened(tab.id, true);
    response.structured({ tabId: tab.id, active: args.active, ...(args.ownWindow ? { windowId: tab.windowId } : {}) });
    const where = args.ownWindow ? ' in your own window' : args.active ? '' : ' in the background';
    const opened = `Opened tab ${tab.id}${args.url ? ` with ${args.url}` : ''}${where}`;
    if (!args.url) return void response.text(`${opened}. Use navigate to load a page in it.`);
    // An agent that follows the user's tab works in the tab in front: a tab left behind is not where it works.
    if (ctx.callerTabs.follows && !args.active) return void response.text(`${opened}.`);
    await reportNewPage(ctx, response, tab, opened);
  },
});
