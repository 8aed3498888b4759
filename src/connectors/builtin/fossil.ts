/**
 * Fossil SCM: the signed-in user's tickets, a ticket's details and wiki pages, read from the pages
 * Fossil renders for the user. Fossil's default ticket schema has no assignee, so the site is
 * expected to have an `assigned_to` column and a ticket report titled "My Tickets"
 * (`WHERE assigned_to=$login`) — see docs/connectors.md.
 */
import { z } from 'zod';
import { pageText, pageUrl } from '../output';
import { ConnectorError, defineConnector } from '../sdk';

/** Fossil's stock statuses that mean the work is done. */
const CLOSED_STATUSES = new Set(['closed', 'fixed', 'tested', 'resolved']);

const TicketId = z
  .string()
  .regex(/^[0-9a-fA-F]{4,64}$/, 'a ticket hash (or a prefix of at least 4 hex digits)')
  .describe('The ticket hash, or a unique prefix of it (at least 4 hex digits), as shown in ticket lists');

export default defineConnector({
  id: 'fossil',
  name: 'Fossil SCM',
  version: '1.0.0',
  summary: 'Tickets assigned to you, ticket details and wiki pages.',
  siteExample: 'https://code.example.com/repo/',
  matches: ['http://127.0.0.1/*', 'http://localhost/*'],
  auth: {
    // Fossil redirects to /login?g=… and shows a form with fields u and p.
    loginPath: '/login',
    loginSelector: 'form[action$="login"] input[name="p"]',
    signInPath: 'login',
  },
  tools: {
    list_my_tickets: {
      description:
        'List the tickets assigned to the signed-in Fossil user (from the "My Tickets" report), newest first.',
      input: z.object({
        status: z
          .enum(['open', 'closed', 'all'])
          .default('open')
          .describe('open: not yet fixed or closed; closed: Fixed, Tested or Closed; all: both'),
        limit: z.number().int().min(1).max(500).default(100).describe('At most this many tickets'),
      }),
      output: z.object({
        status: z.enum(['open', 'closed', 'all']),
        count: z.number().int(),
        tickets: z.array(
          z.object({
            id: z.string(),
            title: z.string(),
            status: z.string(),
            type: z.string(),
            priority: z.string(),
            modified: z.string(),
            url: pageUrl,
          }),
        ),
      }),
      destructive: false,
      async run({ status, limit }, ctx) {
        // Report numbers differ between repositories: find "My Tickets" by its title.
        await ctx.navigate('reportlist', { waitFor: '.content' });
        const reports = await ctx.extractRows('a[href*="rptview"]', { title: {}, href: { pick: 'href' } });
        const report = reports.find((r) => String(r.title).trim().toLowerCase() === 'my tickets');
        if (!report?.href) {
          throw new ConnectorError(
            'This Fossil repository has no "My Tickets" report. An administrator can add one (SQL: WHERE assigned_to=$login); see docs/connectors.md.',
          );
        }
        await ctx.navigate(String(report.href), { waitFor: 'table.report' });
        const head = await ctx.extractFields({ columns: { selector: 'table.report thead th', all: true } });
        const columns = ((head.columns as string[] | null) ?? []).map((c) => c.trim().toLowerCase());
        const rows = await ctx.extractRows('table.report tbody tr', {
          cells: { selector: 'td', all: true },
          url: { selector: 'a[href*="tktview"]', pick: 'href' },
        });
        const tickets = rows
          .map((row) => {
            const cells = (row.cells as string[]) ?? [];
            const cell = (name: string) => (columns.indexOf(name) >= 0 ? (cells[columns.indexOf(name)] ?? '') : '');
            return {
              id: cell('#') || String(row.url ?? '').replace(/^.*\/tktview\/?/, ''),
              title: cell('title'),
              status: cell('status'),
              type: cell('type'),
              priority: cell('priority'),
              modified: cell('mtime'),
              url: row.url,
            };
          })
          .filter((t) => status === 'all' || CLOSED_STATUSES.has(t.status.toLowerCase()) === (status === 'closed'))
          .slice(0, limit);
        return {
          data: { status, count: tickets.length, tickets },
          text: tickets.length
            ? tickets
                .map((t) => `- ${t.id} [${t.status}] ${t.title} (${t.type}, ${t.priority || 'no priority'})`)
                .join('\n')
            : `No ${status === 'all' ? '' : `${status} `}tickets are assigned to you.`,
        };
      },
    },
    get_ticket: {
      description: 'Read one Fossil ticket: title, status, type, severity, priority, assignee and description.',
      input: z.object({ id: TicketId }),
      output: z.object({
        ticket: z.object({
          hash: pageText,
          title: pageText,
          status: pageText,
          type: pageText,
          severity: pageText,
          priority: pageText,
          subsystem: pageText,
          resolution: pageText,
          assigned_to: pageText,
          modified: pageText,
          description: pageText,
          url: z.string(),
        }),
      }),
      destructive: false,
      async run({ id }, ctx) {
        await ctx.navigate(`tktview/${id.toLowerCase()}`, { waitFor: '.content' });
        // The stock view page is a table of "Label:" cells each followed by its value cell.
        const label = (text: string) => ({ selector: 'td.tktDspLabel', label: text });
        const ticket = await ctx.extractFields({
          hash: '#hash-tk',
          title: label('Title'),
          status: label('Status'),
          type: label('Type'),
          severity: label('Severity'),
          priority: label('Priority'),
          subsystem: label('Subsystem'),
          resolution: label('Resolution'),
          assigned_to: label('Assigned To'),
          modified: label('Last Modified'),
          description: 'td.tktDspValue[colspan="5"]',
        });
        if (!ticket.hash) throw new ConnectorError(`There is no ticket ${id} in this Fossil repository.`);
        const data = { ...ticket, url: await ctx.url() };
        const text = [
          `Ticket ${ticket.hash}: ${ticket.title}`,
          `Status: ${ticket.status} · Type: ${ticket.type} · Priority: ${ticket.priority || '—'} · Severity: ${ticket.severity || '—'}`,
          `Assigned to: ${ticket.assigned_to || 'nobody'}`,
          '',
          String(ticket.description ?? ''),
        ].join('\n');
        return { data: { ticket: data }, text };
      },
    },
    read_wiki_page: {
      description: 'Read a Fossil wiki page as text.',
      input: z.object({
        name: z
          .string()
          .min(1)
          .max(200)
          .describe('The wiki page name, exactly as Fossil shows it (e.g. ReleaseProcess)'),
      }),
      output: z.object({ page: z.object({ name: z.string(), text: z.string(), url: z.string() }) }),
      destructive: false,
      async run({ name }, ctx) {
        await ctx.navigate(`wiki?name=${encodeURIComponent(name)}`, { waitFor: '.content' });
        const page = await ctx.extractFields({ text: '.content', empty: { selector: '.content > p > i' } });
        const text = String(page.text ?? '');
        // Fossil renders a page that does not exist as an italic "Empty Page".
        if (!text || (page.empty === 'Empty Page' && text === 'Empty Page')) {
          throw new ConnectorError(`There is no wiki page named ${name}. Page names are case-sensitive.`);
        }
        return { data: { page: { name, text, url: await ctx.url() } }, text: `# ${name}\n\n${text}` };
      },
    },
  },
  async healthCheck(ctx) {
    await ctx.navigate('reportlist', { waitFor: '.content' });
    const { signedIn } = await ctx.extractFields({ signedIn: { selector: 'a[href$="logout"]', pick: 'exists' } });
    return signedIn === true;
  },
});
