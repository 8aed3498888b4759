import { z } from 'zod';
import { reportNewPage } from '../action-flow';
import { DialogHeld, heldUnreadText } from '../dialogs';
import { leaveDialogArg } from './action-args';
import { urlArgument } from '../tool-spec';
import { defineTool, type ToolContext } from '../tool';

/** An absolute http(s) URL, or a message saying what is wrong with it. */
export function checkWebUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${url}" is not an absolute URL. Give the whole address, starting with https:// or http://.`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `Tabwright only opens http(s) pages, not ${parsed.protocol} URLs.`;
  }
  return undefined;
}

/**
 * The tab to navigate: the caller's current tab (for an agent that follows the user's tab, the one
 * in front). A web page on a site the gates refuse is not taken away from the user; a browser page
 * (new tab, about:blank) may be.
 */
export async function tabToNavigate(ctx: ToolContext) {
  const tab = await ctx.callerTabs.current();
  if ('refusal' in tab) return tab.refusal;
  // An extension page in front may be Tabwright's own panel: never navigate it away.
  if (/^chrome-extension:/i.test(tab.url ?? '')) {
    return 'The active tab is an extension page, which Tabwright leaves alone. Open a new tab with new_tab.';
  }
  if (tab.url && /^https?:/i.test(tab.url)) {
    const refusal = await ctx.checkDestination(tab.url);
    if (refusal) return `${refusal} (The tab is on that site; open a new tab with new_tab instead.)`;
  }
  return tab;
}

export const navigate = defineTool({
  name: 'navigate',
  title: 'Navigate',
  description:
    'Load a URL in the tab you work in and wait for it to load (bounded). Only absolute http(s) URLs on sites the ' +
    'user has allowed. Returns the snapshot of the new page. A page that asks before leaving ("Leave site?") is ' +
    'left as it is unless `dialog` says to accept.',
  effect: 'write',
  scope: 'tabs',
  usesCurrentTab: true,
  destination: urlArgument,
  input: z.object({
    url: z.string().min(1).max(8_192).describe('Absolute http(s) URL to load'),
    dialog: leaveDialogArg,
  }),
  async handle(args, ctx, response) {
    const problem = checkWebUrl(args.url);
    if (problem) return void response.error(problem);
    const refusal = await ctx.checkDestination(args.url);
    if (refusal) return void response.error(refusal);
    const tab = await tabToNavigate(ctx);
    if (typeof tab === 'string') return void response.error(tab);
    const leaving = await ctx.leave(tab.id, 'navigate');
    if (leaving.refusal) return void response.error(leaving.refusal);
    try {
      const loaded = await ctx.browser.navigate(tab.id, args.url, leaving.signal);
      await reportNewPage(ctx, response, loaded, `Navigated to ${args.url}`);
    } catch (error) {
      // A page that asks its user while it loads never finishes loading until they answer.
      if (!(error instanceof DialogHeld) || ctx.signal.aborted) throw error;
      response.text(`Navigated to ${args.url}.`);
      response.text(heldUnreadText(error.kind));
    } finally {
      await leaving.done();
    }
  },
});
