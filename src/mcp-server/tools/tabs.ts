import { z } from 'zod';
import { neutraliseText } from '../../shared/text/line';
import { defineTool, type ToolContext } from '../tool';

/**
 * The open tabs as the model reads them (the `tabs` tool, and what `close_tab` says remains);
 * tabs on sites that are not allowed show no title or URL.
 */
export async function listTabs(ctx: ToolContext): Promise<{ text: string; tabs: Array<Record<string, unknown>> }> {
  const lines: string[] = [];
  const tabs: Array<Record<string, unknown>> = [];
  for (const tab of await ctx.browser.listTabs()) {
    const active = tab.active && tab.windowId === ctx.windowId;
    const marker = active ? ' (active)' : '';
    if (await ctx.isTabVisible(tab.url)) {
      // Titles are page text: one line each, no brackets or quotes to forge another tab with.
      lines.push(`- [${tab.id}]${marker} ${neutraliseText(tab.title ?? '')} — ${neutraliseText(tab.url ?? '')}`);
      tabs.push({ id: tab.id, title: tab.title, url: tab.url, active });
    } else {
      lines.push(`- [${tab.id}]${marker} (not allowed)`);
      tabs.push({ id: tab.id, allowed: false, active });
    }
  }
  return { text: lines.length ? lines.join('\n') : 'No tabs are open.', tabs };
}

export const tabs = defineTool({
  name: 'tabs',
  title: 'List tabs',
  description:
    'List the open tabs: id, title, URL and which is active. Tabs on sites the user has not allowed show only ' +
    '"(not allowed)". Use the id with switch_tab or close_tab.',
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
