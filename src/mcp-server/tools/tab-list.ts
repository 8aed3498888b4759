/** The open tabs as the model reads them; tabs on sites that are not allowed show no title or URL. */
import { neutraliseText } from '../../page/neutralise';
import type { ToolContext } from '../tool';

export async function listTabs(ctx: ToolContext): Promise<{ text: string; tabs: Array<Record<string, unknown>> }> {
  const lines: string[] = [];
  const tabs: Array<Record<string, unknown>> = [];
  for (const tab of await ctx.browser.listTabs()) {
    const active = tab.active && tab.windowId === ctx.windowId;
    const marker = active ? ' (active)' : '';
    if (await ctx.isTabVisible(tab.url)) {
      lines.push(`- [${tab.id}]${marker} ${neutraliseText(tab.title ?? '')} — ${neutraliseText(tab.url ?? '')}`);
      tabs.push({ id: tab.id, title: tab.title, url: tab.url, active });
    } else {
      lines.push(`- [${tab.id}]${marker} (not allowed)`);
      tabs.push({ id: tab.id, allowed: false, active });
    }
  }
  return { text: lines.length ? lines.join('\n') : 'No tabs are open.', tabs };
}
