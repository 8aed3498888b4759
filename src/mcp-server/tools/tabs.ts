import { z } from 'zod';
import { neutraliseText } from '../../page/neutralise';
import { defineTool } from '../tool';

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
    const all = await ctx.browser.listTabs();
    const lines: string[] = [];
    const listed: Array<Record<string, unknown>> = [];
    for (const tab of all) {
      const active = tab.active && tab.windowId === ctx.windowId;
      const marker = active ? ' (active)' : '';
      if (await ctx.isTabVisible(tab.url)) {
        // Titles are page text: one line each, no brackets or quotes to forge another tab with.
        lines.push(`- [${tab.id}]${marker} ${neutraliseText(tab.title ?? '')} — ${neutraliseText(tab.url ?? '')}`);
        listed.push({ id: tab.id, title: tab.title, url: tab.url, active });
      } else {
        lines.push(`- [${tab.id}]${marker} (not allowed)`);
        listed.push({ id: tab.id, allowed: false, active });
      }
    }
    if (!lines.length) response.text('No tabs are open.');
    else response.pageText('open tabs', lines.join('\n'));
    response.structured({ tabs: listed });
  },
});
