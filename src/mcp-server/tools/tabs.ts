import { z } from 'zod';
import { defineTool } from '../tool';

export const tabs = defineTool({
  name: 'tabs',
  description:
    'List the open tabs: id, title, URL and which is active. Tabs on sites the user has not allowed show only ' +
    '"(not allowed)". Use the id with switch_tab or close_tab.',
  kind: 'read',
  target: 'tabs',
  input: z.object({}),
  async handle(_args, ctx, response) {
    const all = await ctx.browser.listTabs();
    const lines: string[] = [];
    const visible: Array<Record<string, unknown>> = [];
    for (const tab of all) {
      const marker = tab.active && tab.windowId === ctx.windowId ? ' (active)' : '';
      if (await ctx.isTabVisible(tab.url)) {
        lines.push(`- [${tab.id}]${marker} ${tab.title ?? ''} — ${tab.url ?? ''}`);
        visible.push({
          id: tab.id,
          title: tab.title,
          url: tab.url,
          active: tab.active && tab.windowId === ctx.windowId,
        });
      } else {
        lines.push(`- [${tab.id}]${marker} (not allowed)`);
        visible.push({ id: tab.id, allowed: false, active: tab.active && tab.windowId === ctx.windowId });
      }
    }
    response.text(lines.length ? lines.join('\n') : 'No tabs are open.');
    response.structured({ tabs: visible });
  },
});
