import { z } from 'zod';
import { neutraliseText } from '../../shared/text/line';
import { defineTool, type ToolContext } from '../tool';

/**
 * The tabs as the model reads them (the `tabs` tool, and what `close_tab` says remains): the
 * caller's own tabs, which one it works in, and how many other tabs there are, unnamed. A caller
 * that follows the person's tab sees every tab, those on sites that are not allowed without title
 * or URL.
 */
export async function listTabs(ctx: ToolContext): Promise<{ text: string; tabs: Array<Record<string, unknown>> }> {
  const lines: string[] = [];
  const tabs: Array<Record<string, unknown>> = [];
  const all = await ctx.browser.listTabs();
  const follows = ctx.callerTabs.follows;
  const own = new Set(ctx.callerTabs.own());
  const current = follows ? undefined : await ctx.callerTabs.current();
  const currentId = current && 'id' in current ? current.id : undefined;
  let others = 0;
  for (const tab of all) {
    if (!follows && !own.has(tab.id)) {
      others++;
      continue;
    }
    const isCurrent = follows ? tab.active && tab.windowId === ctx.windowId : tab.id === currentId;
    const marker = isCurrent ? (follows ? ' (active)' : ' (current)') : '';
    if (await ctx.isTabVisible(tab.url)) {
      // Titles are page text: one line each, no brackets or quotes to forge another tab with.
      lines.push(`- [${tab.id}]${marker} ${neutraliseText(tab.title ?? '')} — ${neutraliseText(tab.url ?? '')}`);
      tabs.push({
        id: tab.id,
        title: tab.title,
        url: tab.url,
        ...(follows ? { active: isCurrent } : { current: isCurrent }),
      });
    } else {
      lines.push(`- [${tab.id}]${marker} (not allowed)`);
      tabs.push({ id: tab.id, allowed: false, ...(follows ? { active: isCurrent } : { current: isCurrent }) });
    }
  }
  if (follows) return { text: lines.length ? lines.join('\n') : 'No tabs are open.', tabs };
  const rest = others ? `${others} other tab${others === 1 ? ' is' : 's are'} open, not shared with you.` : '';
  const text = lines.length
    ? [...lines, ...(rest ? [rest] : [])].join('\n')
    : `You have no tabs of your own. ${rest}`.trim();
  return { text, tabs };
}

export const tabs = defineTool({
  name: 'tabs',
  title: 'List tabs',
  description:
    'List your tabs: id, title, URL and which one you work in (the tools act on it), and how many other tabs are ' +
    'open (not shared with you, so not named). Tabs on sites the user has not allowed show only "(not allowed)". ' +
    'Use the id with switch_tab or close_tab.',
  effect: 'read',
  scope: 'tabs',
  input: z.object({}),
  async handle(_args, ctx, response) {
    const listed = await listTabs(ctx);
    if (!listed.tabs.length) response.text(listed.text);
    else response.pageText('open tabs', listed.text);
    response.structured({ tabs: listed.tabs });
  },
});
