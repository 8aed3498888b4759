import { z } from 'zod';
import { describeDownload, NOT_TURNED_ON, shownDownloads, structuredDownload } from '../downloads';
import { defineTool } from '../tool';

export const downloads = defineTool({
  name: 'downloads',
  title: 'List downloads',
  description:
    'List recent downloads (newest first): id, file name, size, state (in progress, complete, interrupted) and ' +
    'the origin it came from. Only downloads started from and served by allowed sites are listed, and only ' +
    'those since the user turned on "Report downloads"; file contents are never read.',
  effect: 'read',
  scope: 'tabs',
  input: z.object({
    limit: z.number().int().min(1).max(50).default(10).describe('How many downloads to list at most (default 10)'),
  }),
  async handle(args, ctx, response) {
    const port = ctx.downloads;
    if (!port?.reporting()) return void response.error(NOT_TURNED_ON);
    // Asking Chrome for more than the limit leaves room for the ones the gates hide.
    const recent = await port.search({ sinceMs: port.since(), limit: Math.max(args.limit * 4, 50) });
    const shown = (await shownDownloads(recent, ctx.checkDestination)).slice(0, args.limit);
    if (shown.length === 0) response.text('No downloads from allowed sites since download reporting was turned on.');
    else response.pageText('downloads', shown.map(describeDownload).join('\n'));
    response.structured({ downloads: shown.map(structuredDownload) });
  },
});
