/**
 * MantisBT: issues assigned to or reported by the signed-in user, search, one issue with its
 * notes, attachments and relationships, and — as writes — adding a note and reporting an issue.
 * Everything is read from the pages MantisBT renders, never its REST API. Lists go through
 * search.php, which builds a temporary filter for this request only: the user's saved filter and
 * current project stay as they were. Writes post MantisBT's own forms with their security tokens
 * and confirm by reading back what MantisBT shows.
 */
import { z } from 'zod';
import type { ExtractedRecord } from '../fields';
import { pageNumber, pageText, pageUrl } from '../output';
import { AuthExpiredError, ConnectorError, defineConnector, type ConnectorContext } from '../sdk';

/** MantisBT's status codes: below 80 is open, 80 resolved, 90 closed. */
const RESOLVED = 80;
const CLOSED = 90;
/** `hide_status` value that hides nothing. */
const HIDE_NONE = -2;
/** Filter value meaning "the signed-in user". */
const MYSELF = -1;
const ERROR_FORM_TOKEN_INVALID = 2800;
/** How long a submitted form may take before the tool stops waiting and says so. */
export const SUBMIT_TIMEOUT_MS = 15_000;

const IssueId = z.number().int().min(1).describe('The issue number, as in 0000123 or #123');
const StatusChoice = z.enum(['open', 'resolved', 'all']);
const STATUS_HELP = 'open: not yet resolved; resolved: resolved or closed; all: every status';
const Status = StatusChoice.default('open').describe(STATUS_HELP);
const Limit = z.number().int().min(1).max(100).default(50).describe('At most this many issues');

type StatusChoice = z.output<typeof StatusChoice>;

function statusParams(status: StatusChoice): string {
  if (status === 'open') return `hide_status=${RESOLVED}`;
  if (status === 'resolved') return `status[]=${RESOLVED}&status[]=${CLOSED}&hide_status=${HIDE_NONE}`;
  return `hide_status=${HIDE_NONE}`;
}

/** MantisBT's error box on the page the tab shows, if any: `#1100: Issue 9 not found.` */
async function pageError(ctx: ConnectorContext): Promise<{ code: number; message: string } | null> {
  const found = await ctx.extractFields({
    isError: { selector: '.alert-danger .error-info', pick: 'exists' },
    heading: '.alert-danger p.bold',
    message: '.alert-danger p.bold + p',
  });
  if (!found.isError) return null;
  return { code: Number(/#(\d+)/.exec(String(found.heading))?.[1] ?? 0), message: String(found.message ?? '') };
}

/** The same box in the HTML a form submission answered with. */
export function responseError(html: string): { code: number; message: string } | null {
  const match = /<p class="bold">[^<#]*#(\d+)<\/p>\s*<p>([\s\S]*?)<\/p>/.exec(html);
  if (!match || !html.includes('error-info')) return null;
  const message = match[2]!
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
  return { code: Number(match[1]), message };
}

/** The shapes of the answers, listed as each tool's outputSchema. */
const IssueRow = z.object({
  id: z.number().int(),
  summary: pageText,
  project: pageText,
  category: z.string(),
  status: pageText,
  assignee: pageText,
  priority: pageText,
  severity: pageText,
  updated: pageText,
  url: pageUrl,
});
const IssueList = z.object({ status: StatusChoice, count: z.number().int(), issues: z.array(IssueRow) });
const Note = z.object({ id: pageNumber, author: pageText, time: z.string(), private: z.boolean(), text: pageText });
const IssueDetail = z.object({
  id: z.number().int(),
  summary: z.string(),
  description: pageText,
  steps: pageText,
  additional: pageText,
  project: pageText,
  category: pageText,
  status: pageText,
  resolution: pageText,
  priority: pageText,
  severity: pageText,
  reporter: pageText,
  assignee: pageText,
  viewStatus: pageText,
  submitted: pageText,
  updated: pageText,
  attachments: z.array(z.string()),
  url: z.string(),
});
const Relationship = z.object({
  type: pageText,
  id: z.number().int(),
  status: pageText,
  assignee: pageText,
  summary: pageText,
});

const LIST_FIELDS = {
  id: { selector: 'td.column-id', pick: 'number' },
  summary: 'td.column-summary',
  project: 'td.column-category span.project a',
  category: 'td.column-category',
  status: 'td.column-status span',
  assignee: 'td.column-status a',
  priority: { selector: 'td.column-priority i', attribute: 'title' },
  severity: 'td.column-severity',
  updated: 'td.column-last-modified',
  url: { selector: 'td.column-summary a', pick: 'href' },
} as const;

/** Lists through a temporary filter of its own (all projects unless `projectId` is given). */
async function listIssues(
  ctx: ConnectorContext,
  filter: string,
  limit: number,
  projectId = 0,
): Promise<ExtractedRecord[]> {
  await ctx.navigate(`search.php?project_id=${projectId}&sort=id&dir=DESC&per_page=${limit}&${filter}`, {
    waitFor: '#buglist, .alert-danger',
  });
  const problem = await pageError(ctx);
  if (problem) throw new ConnectorError(`MantisBT could not list the issues: ${problem.message}`);
  const rows = await ctx.extractRows('#buglist tbody tr', LIST_FIELDS, { limit });
  // MantisBT names the project only for issues outside the user's current project.
  const { current } = await ctx.extractFields({ current: '#dropdown_projects_menu > a.dropdown-toggle' });
  return rows
    .filter((row) => typeof row.id === 'number')
    .map((row) => ({
      ...row,
      // The category cell reads "[Project] Category" when several projects are listed.
      category: String(row.category ?? '')
        .replace(/^\[[^\]]*\]\s*/, '')
        .trim(),
      project: row.project ?? (String(current ?? '').trim() || null),
      assignee: row.assignee ?? null,
    }));
}

function listText(issues: ExtractedRecord[], empty: string): string {
  return issues.length
    ? issues
        .map((i) => `- #${i.id} [${i.status}] ${i.summary} (${i.project} / ${i.category}, ${i.priority})`)
        .join('\n')
    : empty;
}

async function openIssue(ctx: ConnectorContext, id: number): Promise<void> {
  await ctx.navigate(`view.php?id=${id}`, { waitFor: 'td.bug-id, .alert-danger' });
  const problem = await pageError(ctx);
  if (problem)
    throw new ConnectorError(`Issue ${id} does not exist or you cannot see it (MantisBT: ${problem.message})`);
}

async function readNotes(ctx: ConnectorContext): Promise<ExtractedRecord[]> {
  const rows = await ctx.extractRows('#bugnotes tr.bugnote', {
    id: { selector: 'a[rel="bookmark"]', pick: 'number' },
    author: 'td.category p.no-margin a[href*="view_user_page.php"]',
    time: 'td.category p.small',
    private: { selector: 'td.bugnote-private', pick: 'exists' },
    text: 'td.bugnote-note',
  });
  return rows.map((note): ExtractedRecord => ({
    ...note,
    // The time line ends with "private" on private notes.
    time: String(note.time ?? '')
      .replace(/\s*private\s*$/, '')
      .trim(),
  }));
}

interface Project {
  id: number;
  name: string;
}

/** The projects in the navigation bar's project menu, and the one it shows as current. */
async function readProjects(ctx: ConnectorContext): Promise<{ current: string; projects: Project[] }> {
  const { current } = await ctx.extractFields({ current: '#dropdown_projects_menu > a.dropdown-toggle' });
  const links = await ctx.extractRows('#projects-list a.project-link', {
    name: {},
    href: { pick: 'href' },
  });
  const projects = links
    .map((link) => ({
      name: String(link.name ?? '').trim(),
      id: Number(new URL(String(link.href ?? ''), ctx.site).searchParams.get('project_id')?.split(';').pop()),
    }))
    .filter((p) => p.name && Number.isInteger(p.id));
  return { current: String(current ?? '').trim(), projects };
}

function pickProject(projects: Project[], wanted: string): Project {
  const found = projects.find((p) => p.id !== 0 && p.name.toLowerCase() === wanted.trim().toLowerCase());
  if (!found) {
    const names = projects.filter((p) => p.id !== 0).map((p) => p.name);
    throw new ConnectorError(
      `MantisBT has no project "${wanted}" that you can see. Projects: ${names.length ? names.join(', ') : 'none'}.`,
    );
  }
  return found;
}

/** The option of `select` whose label is `wanted` (case ignored; "[All Projects] " prefixes too). */
async function pickOption(ctx: ConnectorContext, select: string, wanted: string, what: string): Promise<string> {
  const options = await ctx.extractRows(`select[name="${select}"] option:not([disabled])`, {
    label: {},
    value: { attribute: 'value' },
  });
  const bare = (label: unknown) =>
    String(label ?? '')
      .replace(/^\[[^\]]*\]\s*/, '')
      .trim()
      .toLowerCase();
  const found = options.find((o) => bare(o.label) === wanted.trim().toLowerCase() && o.value !== '');
  if (!found) {
    throw new ConnectorError(
      `MantisBT has no ${what} "${wanted}" here. Valid: ${options
        .filter((o) => o.value !== '')
        .map((o) => String(o.label).trim())
        .join(', ')}.`,
    );
  }
  return String(found.value);
}

/**
 * Posts a form and waits a bounded time. A form MantisBT refuses for an expired security token is
 * read again and sent once more (`refill` fetches a fresh token); a submission that never answers
 * is reported as possibly done, so the agent checks before trying again.
 */
async function submit(
  ctx: ConnectorContext,
  path: string,
  refill: () => Promise<Record<string, string>>,
  whatIfSlow: string,
): Promise<{ url: string; html: string }> {
  for (let attempt = 0; ; attempt++) {
    const form = await refill();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const slow = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new ConnectorError(
              `MantisBT did not answer within ${SUBMIT_TIMEOUT_MS / 1000} s after the form was sent. ${whatIfSlow}`,
            ),
          ),
        SUBMIT_TIMEOUT_MS,
      );
    });
    let response;
    try {
      response = await Promise.race([ctx.fetch(path, { method: 'POST', form }), slow]);
    } finally {
      clearTimeout(timer);
    }
    if (response.text.includes('id="login-form"')) {
      throw new AuthExpiredError(
        'MantisBT signed you out before the form was sent, so nothing was changed. Ask the user to sign in to MantisBT, then call the tool again.',
      );
    }
    const problem = responseError(response.text);
    if (problem?.code === ERROR_FORM_TOKEN_INVALID && attempt === 0) {
      ctx.log('form token expired; reading the form again');
      continue;
    }
    if (problem) throw new ConnectorError(`MantisBT refused it (#${problem.code}): ${problem.message}`);
    if (response.status >= 400) throw new ConnectorError(`MantisBT refused it (HTTP ${response.status}).`);
    return { url: response.url, html: response.text };
  }
}

async function readIssue(ctx: ConnectorContext, id: number) {
  const fields = await ctx.extractFields({
    summary: 'td.bug-summary',
    description: 'td.bug-description',
    steps: 'td.bug-steps-to-reproduce',
    additional: 'td.bug-additional-information',
    project: 'td.bug-project',
    category: 'td.bug-category',
    status: 'td.bug-status',
    resolution: 'td.bug-resolution',
    priority: 'td.bug-priority',
    severity: 'td.bug-severity',
    reporter: 'td.bug-reporter',
    assignee: 'td.bug-assigned-to',
    viewStatus: 'td.bug-view-status',
    submitted: 'td.bug-date-submitted',
    updated: 'td.bug-last-modified',
    attachments: { selector: 'a[href*="file_download.php"][href*="type=bug"]', all: true },
  });
  const relationships = await ctx.extractRows('#relationships .widget-main table tr', {
    type: 'td:nth-child(1)',
    id: { selector: 'td:nth-child(2) a', pick: 'number' },
    status: 'td:nth-child(3) span',
    assignee: 'td:nth-child(4)',
    summary: 'td:nth-child(5) span',
  });
  const attachments = [...new Set((fields.attachments as string[]).map((a) => String(a ?? '').trim()))].filter(Boolean);
  const rest: ExtractedRecord = { ...fields };
  delete rest.attachments;
  const issue: ExtractedRecord & { attachments: string[] } = {
    id,
    ...rest,
    // The summary cell starts with the padded id: "0000001: Checkout button…".
    summary: String(fields.summary ?? '').replace(/^\d+:\s*/, ''),
    assignee: fields.assignee || null,
    attachments,
  };
  return {
    issue,
    relationships: relationships.filter((r) => typeof r.id === 'number'),
  };
}

export default defineConnector({
  id: 'mantisbt',
  name: 'MantisBT',
  version: '1.0.0',
  summary: 'Issues assigned to or reported by you, search, issue details; adding notes and reporting issues.',
  siteExample: 'https://bugs.example.com/',
  matches: ['http://127.0.0.1/*', 'http://localhost/*'],
  auth: {
    // Signed out, MantisBT redirects to login_page.php?return=…; the password step has the same form.
    loginPath: 'login_page.php',
    loginSelector: 'form#login-form',
    signInPath: 'login_page.php',
  },
  tools: {
    list_my_issues: {
      description: 'List the MantisBT issues assigned to the signed-in user, across all their projects, newest first.',
      input: z.object({ status: Status, limit: Limit }),
      output: IssueList,
      destructive: false,
      async run({ status, limit }, ctx) {
        const issues = await listIssues(ctx, `handler_id=${MYSELF}&${statusParams(status)}`, limit);
        return {
          data: { status, count: issues.length, issues },
          text: listText(issues, `No ${status === 'all' ? '' : `${status} `}issues are assigned to you.`),
        };
      },
    },
    list_reported_by_me: {
      description: 'List the MantisBT issues the signed-in user reported, across all their projects, newest first.',
      input: z.object({ status: Status, limit: Limit }),
      output: IssueList,
      destructive: false,
      async run({ status, limit }, ctx) {
        const issues = await listIssues(ctx, `reporter_id=${MYSELF}&${statusParams(status)}`, limit);
        return {
          data: { status, count: issues.length, issues },
          text: listText(issues, `You reported no ${status === 'all' ? '' : `${status} `}issues.`),
        };
      },
    },
    search_issues: {
      description:
        'Search MantisBT issues by text (summary, description, notes), optionally in one project and by status.',
      input: z.object({
        text: z.string().trim().min(1).max(200).describe('The words to look for'),
        project: z.string().trim().min(1).max(128).optional().describe('Only in this project (its name)'),
        status: StatusChoice.default('all').describe(STATUS_HELP),
        limit: Limit,
      }),
      output: IssueList.extend({ text: z.string(), project: z.string().nullable() }),
      destructive: false,
      async run({ text, project, status, limit }, ctx) {
        let projectId = 0;
        if (project) {
          await ctx.navigate('my_view_page.php', { waitFor: '.page-content' });
          projectId = pickProject((await readProjects(ctx)).projects, project).id;
        }
        const issues = await listIssues(
          ctx,
          `search=${encodeURIComponent(text)}&${statusParams(status)}`,
          limit,
          projectId,
        );
        return {
          data: { text, project: project ?? null, status, count: issues.length, issues },
          text: listText(issues, `No issues match "${text}".`),
        };
      },
    },
    get_issue: {
      description:
        'Read one MantisBT issue: summary, description, status, priority, severity, category, reporter, assignee, dates, notes, attachments and relationships.',
      input: z.object({ id: IssueId }),
      output: z.object({ issue: IssueDetail, relationships: z.array(Relationship), notes: z.array(Note) }),
      destructive: false,
      async run({ id }, ctx) {
        await openIssue(ctx, id);
        const { issue, relationships } = await readIssue(ctx, id);
        const notes = await readNotes(ctx);
        const text = [
          `#${id}: ${issue.summary}`,
          `Project: ${issue.project} / ${issue.category} · Status: ${issue.status} · Priority: ${issue.priority} · Severity: ${issue.severity}`,
          `Reporter: ${issue.reporter} · Assignee: ${issue.assignee ?? 'nobody'} · Submitted: ${issue.submitted} · Updated: ${issue.updated}`,
          '',
          String(issue.description ?? ''),
          ...(issue.attachments.length ? ['', `Attachments: ${issue.attachments.join(', ')}`] : []),
          ...(relationships.length
            ? ['', ...relationships.map((r) => `Relationship: ${r.type} #${r.id} ${r.summary} [${r.status}]`)]
            : []),
          ...(notes.length
            ? [
                '',
                `Notes (${notes.length}):`,
                ...notes.map((n) => `- ${n.author} at ${n.time}${n.private ? ' (private)' : ''}: ${n.text}`),
              ]
            : []),
        ].join('\n');
        return { data: { issue: { ...issue, url: await ctx.url() }, relationships, notes }, text };
      },
    },
    add_note: {
      description: 'Add a note to a MantisBT issue as the signed-in user, public or private. Writes to the site.',
      input: z.object({
        id: IssueId,
        text: z.string().trim().min(1).max(65_535).describe('The note text'),
        private: z.boolean().default(false).describe('Private notes are seen only by developers and up'),
      }),
      output: z.object({ id: z.number().int(), added: z.literal(true), note: Note }),
      destructive: true,
      async run({ id, text, private: isPrivate }, ctx) {
        let before: number[] = [];
        const refill = async () => {
          await openIssue(ctx, id);
          const form = await ctx.extractFields({
            token: { selector: '#bugnoteadd input[name="bugnote_add_token"]', attribute: 'value' },
            canBePrivate: { selector: '#bugnoteadd input[name="private"]', pick: 'exists' },
          });
          if (!form.token) {
            throw new ConnectorError(
              `MantisBT shows no note form on issue ${id} (it may be read-only, or you may not add notes); nothing was sent.`,
            );
          }
          if (isPrivate && !form.canBePrivate) {
            throw new ConnectorError(
              `You may not add private notes to issue ${id} in MantisBT; nothing was sent. Ask the user whether a public note is fine.`,
            );
          }
          before = (await readNotes(ctx)).map((n) => Number(n.id));
          return {
            bugnote_add_token: String(form.token),
            bug_id: String(id),
            bugnote_text: text,
            ...(isPrivate ? { private: 'on' } : {}),
          };
        };
        await submit(
          ctx,
          'bugnote_add.php',
          refill,
          `The note may have been added — read issue ${id} (get_issue) before trying again.`,
        );
        await openIssue(ctx, id);
        const added = (await readNotes(ctx)).find((n) => !before.includes(Number(n.id)) && n.text === text.trim());
        if (!added) {
          throw new ConnectorError(
            `MantisBT answered, but issue ${id} shows no new note; read the issue before retrying.`,
          );
        }
        return {
          data: { id, added: true, note: added },
          text: `Added ${added.private ? 'a private' : 'a public'} note ~${added.id} to issue #${id} as ${added.author}.`,
        };
      },
    },
    report_issue: {
      description:
        'Report a new MantisBT issue in a project as the signed-in user. Writes to the site. Returns the new issue id.',
      input: z.object({
        project: z.string().trim().min(1).max(128).describe('The project name'),
        category: z.string().trim().min(1).max(128).describe('A category of that project'),
        summary: z.string().trim().min(1).max(128).describe('One line'),
        description: z.string().trim().min(1).max(65_535).describe('What happens, and what should'),
        severity: z
          .string()
          .trim()
          .min(1)
          .max(64)
          .default('minor')
          .describe('MantisBT severity, e.g. feature, trivial, text, tweak, minor, major, crash, block'),
      }),
      output: z.object({ id: z.number().int(), created: z.literal(true), issue: IssueDetail }),
      destructive: true,
      async run({ project, category, summary, description, severity }, ctx) {
        await ctx.navigate('my_view_page.php', { waitFor: '.page-content' });
        const { current, projects } = await readProjects(ctx);
        const target = pickProject(projects, project);
        const previous = projects.find((p) => p.name === current)?.id;
        // The report page makes its project the current one; the user's choice is put back after.
        try {
          const refill = async () => {
            await ctx.navigate(`bug_report_page.php?project_id=${target.id}`, {
              waitFor: '#report_bug_form, .alert-danger',
            });
            const problem = await pageError(ctx);
            if (problem)
              throw new ConnectorError(`MantisBT will not take a report in ${target.name}: ${problem.message}`);
            const form = await ctx.extractFields({
              token: { selector: '#report_bug_form input[name="bug_report_token"]', attribute: 'value' },
              project: { selector: '#report_bug_form input[name="project_id"]', attribute: 'value' },
            });
            if (!form.token || Number(form.project) !== target.id) {
              throw new ConnectorError(`MantisBT shows no report form for ${target.name}; nothing was sent.`);
            }
            return {
              bug_report_token: String(form.token),
              m_id: '0',
              project_id: String(target.id),
              category_id: await pickOption(ctx, 'category_id', category, `category in ${target.name}`),
              severity: await pickOption(ctx, 'severity', severity, 'severity'),
              summary,
              description,
            };
          };
          const answer = await submit(
            ctx,
            'bug_report.php',
            refill,
            `The issue may have been created — search for its summary (search_issues) before trying again.`,
          );
          const id = Number(new URL(answer.url).searchParams.get('id'));
          if (!id) throw new ConnectorError('MantisBT answered without showing a new issue; search before retrying.');
          await openIssue(ctx, id);
          const { issue } = await readIssue(ctx, id);
          if (issue.summary !== summary) {
            throw new ConnectorError(`MantisBT shows issue ${id} with another summary; search before retrying.`);
          }
          return {
            data: { id, created: true, issue: { ...issue, url: await ctx.url() } },
            text: `Reported issue #${id} "${issue.summary}" in ${issue.project} / ${issue.category}.`,
          };
        } finally {
          if (previous !== undefined && previous !== target.id) {
            await ctx.fetch(`set_project.php?project_id=${previous}&ref=my_view_page.php`).catch(() => undefined);
          }
        }
      },
    },
  },
  async healthCheck(ctx) {
    await ctx.navigate('my_view_page.php', { waitFor: 'body' });
    const { signedIn } = await ctx.extractFields({
      signedIn: { selector: 'a[href*="logout_page.php"]', pick: 'exists' },
    });
    return signedIn === true;
  },
});
