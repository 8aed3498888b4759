/**
 * DokuWiki: read a page and search the wiki, from the pages DokuWiki renders for the signed-in
 * user. DokuWiki shows its sign-in form in place of a page the user may not read, rather than
 * redirecting, so the form itself is the sign of a lost session.
 */
import { z } from 'zod';
import { pageNumber, pageText, pageUrl } from '../output';
import { ConnectorError, defineConnector } from '../sdk';

const PageId = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\w.:-]+$/, 'a DokuWiki page id such as team:onboarding')
  .describe('The page id, with namespaces separated by colons (e.g. team:onboarding)');

export default defineConnector({
  id: 'dokuwiki',
  name: 'DokuWiki',
  version: '1.0.0',
  summary: 'Read and search wiki pages.',
  siteExample: 'https://wiki.example.com/',
  matches: ['http://127.0.0.1/*', 'http://localhost/*'],
  auth: { loginSelector: 'form#dw__login', signInPath: 'doku.php?do=login' },
  tools: {
    read_page: {
      description: 'Read a DokuWiki page as text, with its title and when it was last changed.',
      input: z.object({ id: PageId }),
      output: z.object({
        page: z.object({ id: z.string(), title: pageText, text: pageText, modified: pageText, url: z.string() }),
      }),
      destructive: false,
      async run({ id }, ctx) {
        await ctx.navigate(`doku.php?id=${encodeURIComponent(id)}`, { waitFor: 'div.page' });
        const page = await ctx.extractFields({
          title: 'div.page h1',
          text: 'div.page',
          // Only pages that exist carry the "Last modified" line; a missing page has an empty one.
          modified: '.docInfo',
        });
        if (!page.modified) throw new ConnectorError(`The wiki has no page ${id}. Use search to find the right id.`);
        const data = { id, title: page.title, text: page.text, modified: page.modified, url: await ctx.url() };
        return { data: { page: data }, text: String(page.text ?? '') };
      },
    },
    search: {
      description: 'Search the wiki: pages whose name or text matches, with a snippet of each.',
      input: z.object({
        query: z.string().trim().min(1).max(200).describe('Words to look for (DokuWiki search syntax)'),
        limit: z.number().int().min(1).max(100).default(20).describe('At most this many results'),
      }),
      output: z.object({
        query: z.string(),
        count: z.number().int(),
        results: z.array(
          z.object({ id: pageText, title: pageText, url: pageUrl, hits: pageNumber, snippet: pageText }),
        ),
        pageNameMatches: z.array(z.object({ id: pageText, url: pageUrl })),
      }),
      destructive: false,
      async run({ query, limit }, ctx) {
        await ctx.navigate(`doku.php?do=search&id=start&q=${encodeURIComponent(query)}`, { waitFor: 'div.page' });
        const results = await ctx.extractRows(
          '.search_fullpage_result',
          {
            id: { selector: 'dt a[data-wiki-id]', attribute: 'data-wiki-id' },
            title: 'dt a[data-wiki-id]',
            url: { selector: 'dt a[data-wiki-id]', pick: 'href' },
            hits: { selector: '.hits', pick: 'number' },
            snippet: 'dd.snippet',
          },
          { limit },
        );
        const names = await ctx.extractRows('.search_quickhits a[data-wiki-id]', {
          id: { attribute: 'data-wiki-id' },
          url: { pick: 'href' },
        });
        return {
          data: { query, count: results.length, results, pageNameMatches: names.slice(0, limit) },
          text: results.length
            ? results.map((r) => `- ${r.id} (${r.hits} hits): ${String(r.snippet).replaceAll('\n', ' ')}`).join('\n')
            : `Nothing in the wiki matches “${query}”.`,
        };
      },
    },
  },
  async healthCheck(ctx) {
    await ctx.navigate('doku.php?id=start', { waitFor: 'div.page, form#dw__login' });
    const { signedIn } = await ctx.extractFields({
      signedIn: { selector: '.action.logout, a.logout', pick: 'exists' },
    });
    return signedIn === true;
  },
});
