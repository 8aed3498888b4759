/**
 * Redmine: the signed-in user's issues, an issue's details and notes, and adding a note — the
 * last one writes, so it needs act mode and the user's confirmation. Reads come from the pages
 * Redmine renders; the note is posted through the issue's own edit form endpoint, with the
 * page's CSRF token, exactly as the page's "Edit" form would.
 */
import { z } from 'zod';
import { pageNumber, pageText, pageUrl } from '../output';
import { ConnectorError, defineConnector, type ConnectorContext } from '../sdk';

const IssueId = z.number().int().min(1).describe('The issue number, as in #123');

const STATUS_FILTER = { open: 'o', closed: 'c', all: '*' } as const;

async function openIssue(ctx: ConnectorContext, id: number): Promise<void> {
  // A missing issue (or one the user cannot see) renders Redmine's 404 page.
  await ctx.navigate(`issues/${id}`, { waitFor: 'div.issue, #errorExplanation' });
  const { found } = await ctx.extractFields({ found: { selector: 'div.issue', pick: 'exists' } });
  if (!found) throw new ConnectorError(`Issue #${id} does not exist or you cannot see it.`);
}

/** A journal entry with a note, as `readNotes` reads it. */
const Note = z.object({ author: pageText, date: pageText, note: pageText });

async function readNotes(ctx: ConnectorContext) {
  return ctx.extractRows('#history .journal.has-notes', {
    author: 'h4 a.user',
    date: { selector: 'h4 a[title]', attribute: 'title' },
    note: 'div.wiki',
  });
}

export default defineConnector({
  id: 'redmine',
  name: 'Redmine',
  version: '1.0.0',
  summary: 'Issues assigned to you, issue details, and adding notes.',
  siteExample: 'https://redmine.example.com/',
  matches: ['http://127.0.0.1/*', 'http://localhost/*'],
  auth: {
    // Redmine redirects to /login?back_url=… when the session is gone.
    loginPath: '/login',
    loginSelector: '#login-form form, form#login-form',
    signInPath: 'login',
  },
  tools: {
    list_my_issues: {
      description: 'List the Redmine issues assigned to the signed-in user.',
      input: z.object({
        status: z.enum(['open', 'closed', 'all']).default('open').describe('Which issues: open, closed or all'),
        limit: z.number().int().min(1).max(100).default(50).describe('At most this many issues'),
      }),
      output: z.object({
        status: z.enum(['open', 'closed', 'all']),
        count: z.number().int(),
        issues: z.array(
          z.object({
            id: pageNumber,
            project: pageText,
            tracker: pageText,
            status: pageText,
            priority: pageText,
            subject: pageText,
            assignee: pageText,
            updated: pageText,
            url: pageUrl,
          }),
        ),
      }),
      destructive: false,
      async run({ status, limit }, ctx) {
        await ctx.navigate(
          `issues?assigned_to_id=me&set_filter=1&status_id=${encodeURIComponent(STATUS_FILTER[status])}&sort=id:desc&per_page=${limit}`,
          { waitFor: 'table.list.issues, #content p.nodata' },
        );
        const issues = await ctx.extractRows(
          'table.list.issues tr.issue',
          {
            id: { selector: 'td.id', pick: 'number' },
            project: 'td.project',
            tracker: 'td.tracker',
            status: 'td.status',
            priority: 'td.priority',
            subject: 'td.subject',
            assignee: 'td.assigned_to',
            updated: 'td.updated_on',
            url: { selector: 'td.subject a', pick: 'href' },
          },
          { limit },
        );
        return {
          data: { status, count: issues.length, issues },
          text: issues.length
            ? issues.map((i) => `- #${i.id} [${i.status}] ${i.subject} (${i.tracker}, ${i.priority})`).join('\n')
            : `No ${status === 'all' ? '' : `${status} `}issues are assigned to you.`,
        };
      },
    },
    get_issue: {
      description: 'Read one Redmine issue: subject, status, priority, assignee, description and notes.',
      input: z.object({ id: IssueId }),
      output: z.object({
        issue: z.object({
          id: z.number().int(),
          heading: pageText,
          subject: pageText,
          status: pageText,
          priority: pageText,
          assignee: pageText,
          author: pageText,
          description: pageText,
          url: z.string(),
        }),
        notes: z.array(Note),
      }),
      destructive: false,
      async run({ id }, ctx) {
        await openIssue(ctx, id);
        const issue = await ctx.extractFields({
          heading: '#content > h2',
          subject: 'div.subject h3',
          status: 'div.status.attribute .value',
          priority: 'div.priority.attribute .value',
          assignee: 'div.assigned-to.attribute .value',
          author: 'p.author a.user',
          description: 'div.description div.wiki',
        });
        const notes = await readNotes(ctx);
        const text = [
          `${issue.heading}: ${issue.subject}`,
          `Status: ${issue.status} · Priority: ${issue.priority} · Assignee: ${issue.assignee || 'nobody'}`,
          '',
          String(issue.description ?? ''),
          ...(notes.length ? ['', `Notes (${notes.length}):`, ...notes.map((n) => `- ${n.author}: ${n.note}`)] : []),
        ].join('\n');
        return { data: { issue: { id, ...issue, url: await ctx.url() }, notes }, text };
      },
    },
    add_note: {
      description: 'Add a note (comment) to a Redmine issue, as the signed-in user. Writes to the site.',
      input: z.object({
        id: IssueId,
        note: z.string().trim().min(1).max(20_000).describe('The note text (Redmine formats it as the site is set up)'),
      }),
      output: z.object({ id: z.number().int(), added: z.literal(true), note: Note, notes: z.number().int() }),
      destructive: true,
      async run({ id, note }, ctx) {
        await openIssue(ctx, id);
        const form = await ctx.extractFields({
          canEdit: { selector: 'form#issue-form', pick: 'exists' },
          token: { selector: 'meta[name="csrf-token"]', attribute: 'content' },
        });
        if (!form.canEdit || !form.token) {
          throw new ConnectorError(`You may not add notes to issue #${id} (Redmine shows no edit form).`);
        }
        const before = (await readNotes(ctx)).length;
        const response = await ctx.fetch(`issues/${id}`, {
          method: 'POST',
          form: { _method: 'patch', authenticity_token: String(form.token), 'issue[notes]': note },
        });
        if (response.status >= 400) {
          throw new ConnectorError(`Redmine refused the note (HTTP ${response.status}).`);
        }
        await openIssue(ctx, id);
        const notes = await readNotes(ctx);
        if (notes.length <= before) {
          const { problem } = await ctx.extractFields({ problem: '#errorExplanation' });
          throw new ConnectorError(`Redmine did not save the note${problem ? `: ${problem}` : ''}.`);
        }
        const added = notes[notes.length - 1]!;
        return {
          data: { id, added: true, note: added, notes: notes.length },
          text: `Added a note to issue #${id} as ${added.author}.`,
        };
      },
    },
  },
  async healthCheck(ctx) {
    await ctx.navigate('my/account', { waitFor: '#content' });
    const { signedIn } = await ctx.extractFields({ signedIn: { selector: 'a.logout', pick: 'exists' } });
    return signedIn === true;
  },
});
