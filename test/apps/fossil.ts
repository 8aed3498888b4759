/**
 * A real Fossil 2.21 server on loopback, seeded for the connector tests: users alice and bob,
 * a ticket schema with an `assigned_to` column, a "My Tickets" report, tickets and wiki pages.
 * The seeded repository is cached as a template; each start copies it into a fresh temp dir.
 */
import { copyFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  cacheDir,
  debPackage,
  ensurePackages,
  freePort,
  removeDir,
  run,
  serve,
  stateDir,
  timed,
  waitForHttp,
  type RunningApp,
} from './common';
import { FOSSIL_SEED } from './seed-data';

const SEED_VERSION = 3;
const FOSSIL = '/usr/bin/fossil';

export interface FossilApp extends RunningApp {
  /** Full ticket hashes by title. */
  readonly tickets: Readonly<Record<string, string>>;
  readonly repository: string;
}

const env = () => ({ ...process.env, USER: 'admin' });

async function fossil(args: string[]): Promise<string> {
  const { stdout } = await run(FOSSIL, args, { env: env(), maxBuffer: 16 << 20 });
  return stdout;
}

function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** Fossil's default ticket table plus the assignee column the default schema lacks. */
const TICKET_TABLE = `CREATE TABLE repository.ticket(
  tkt_id INTEGER PRIMARY KEY, tkt_uuid TEXT UNIQUE, tkt_mtime DATE, tkt_ctime DATE,
  type TEXT, status TEXT, subsystem TEXT, priority TEXT, severity TEXT, foundin TEXT,
  private_contact TEXT, resolution TEXT, title TEXT, comment TEXT, assigned_to TEXT
);
CREATE TABLE repository.ticketchng(
  tkt_id INTEGER REFERENCES ticket, tkt_rid INTEGER REFERENCES blob, tkt_mtime DATE,
  tkt_user TEXT, login TEXT, username TEXT, mimetype TEXT, icomment TEXT
);
CREATE INDEX repository.ticketchng_idx1 ON ticketchng(tkt_id, tkt_mtime);`;

const MY_TICKETS_REPORT = `SELECT
  CASE WHEN status IN ('Open','Verified') THEN '#f2dcdc' ELSE '#c8c8c8' END AS 'bgcolor',
  substr(tkt_uuid,1,10) AS '#',
  datetime(tkt_mtime) AS 'mtime',
  type, status, priority, title
FROM ticket WHERE assigned_to=$login ORDER BY tkt_mtime DESC`;

/**
 * The installed Fossil's own ticket view page, with an "Assigned To" row added. Read from the
 * running binary (its setup page), so the template always matches the installed version.
 */
async function viewPageWithAssignee(repository: string): Promise<string> {
  const port = await freePort();
  const served = serve(FOSSIL, ['server', '--localhost', '--localauth', '--port', String(port), repository], {
    env: env(),
  });
  try {
    await waitForHttp(`http://127.0.0.1:${port}/`, served, 15_000);
    const page = await (await fetch(`http://127.0.0.1:${port}/tktsetup_viewpage`)).text();
    const match = /<textarea[^>]*>([\s\S]*?)<\/textarea>/.exec(page);
    if (!match) throw new Error('Fossil did not show its ticket view template');
    const template = match[1]!
      .replaceAll('&lt;', '<')
      .replaceAll('&gt;', '>')
      .replaceAll('&quot;', '"')
      .replaceAll('&#39;', "'")
      .replaceAll('&amp;', '&');
    const anchor = '$<resolution>\n</td></tr>';
    if (!template.includes(anchor)) throw new Error('Fossil ticket view template changed: no resolution row');
    return template.replace(
      anchor,
      `${anchor}\n<tr><td class="tktDspLabel">Assigned&nbsp;To:</td><td class="tktDspValue" colspan="3">\n$<assigned_to>\n</td></tr>`,
    );
  } finally {
    await served.stop();
  }
}

async function seedTemplate(dir: string): Promise<Record<string, string>> {
  const repo = join(dir, 'template.fossil');
  removeDir(repo);
  await fossil(['init', repo, '--admin-user', 'admin']);
  for (const user of FOSSIL_SEED.users) {
    await fossil(['user', 'new', user.login, `${user.login}@example.com`, user.password, '-R', repo]);
    // h: hyperlinks for this user, so pages are not served as honeypot-protected text.
    await fossil(['user', 'capabilities', user.login, 'dehjkrwnc', '-R', repo]);
  }
  const now = Math.floor(Date.now() / 1000);
  const viewPage = await viewPageWithAssignee(repo);
  await fossil([
    'sql',
    '-R',
    repo,
    [
      // Signed-out visitors see nothing but the login page.
      "UPDATE user SET cap='' WHERE login IN ('nobody','anonymous');",
      `INSERT OR REPLACE INTO config(name,value,mtime) VALUES('ticket-table',${sqlString(TICKET_TABLE)},${now});`,
      `INSERT OR REPLACE INTO config(name,value,mtime) VALUES('ticket-viewpage',${sqlString(viewPage)},${now});`,
      `INSERT OR REPLACE INTO config(name,value,mtime) VALUES('project-name','Tabwright test project',${now});`,
      `INSERT INTO reportfmt(owner,title,mtime,cols,sqlcode) VALUES('admin','My Tickets',${now},'',${sqlString(MY_TICKETS_REPORT)});`,
    ].join('\n'),
  ]);
  await fossil(['rebuild', repo]);
  const tickets: Record<string, string> = {};
  for (const ticket of FOSSIL_SEED.tickets) {
    const out = await fossil([
      'ticket',
      'add',
      'title',
      ticket.title,
      'status',
      ticket.status,
      'type',
      ticket.type,
      'priority',
      ticket.priority,
      'severity',
      ticket.severity,
      'assigned_to',
      ticket.assignedTo,
      'comment',
      ticket.comment,
      '-R',
      repo,
    ]);
    const uuid = /([0-9a-f]{40,64})/.exec(out)?.[1];
    if (!uuid) throw new Error(`fossil ticket add said: ${out}`);
    tickets[ticket.title] = uuid;
  }
  for (const page of FOSSIL_SEED.wiki) {
    const file = join(dir, 'page.md');
    writeFileSync(file, page.markdown);
    await fossil(['wiki', 'create', page.name, file, '--mimetype', 'text/x-markdown', '-R', repo]);
  }
  writeFileSync(join(dir, 'tickets.json'), JSON.stringify(tickets));
  return tickets;
}

async function template(): Promise<{ repo: string; tickets: Record<string, string> }> {
  const dir = cacheDir(`fossil-v${SEED_VERSION}`);
  const repo = join(dir, 'template.fossil');
  const ticketsFile = join(dir, 'tickets.json');
  if (existsSync(repo) && existsSync(ticketsFile)) {
    return { repo, tickets: JSON.parse(readFileSync(ticketsFile, 'utf8')) as Record<string, string> };
  }
  const tickets = await timed('fossil seed', () => seedTemplate(dir));
  return { repo, tickets };
}

export async function ensureFossil(): Promise<void> {
  await ensurePackages([debPackage('fossil', FOSSIL)]);
}

export async function startFossil(): Promise<FossilApp> {
  await ensureFossil();
  const { repo: source, tickets } = await template();
  const dir = stateDir('fossil');
  const repository = join(dir, 'repo.fossil');
  copyFileSync(source, repository);
  const port = await freePort();
  const served = serve(FOSSIL, ['server', '--localhost', '--port', String(port), repository], { env: env() });
  const url = `http://127.0.0.1:${port}`;
  await timed('fossil start', () => waitForHttp(`${url}/login`, served));
  return {
    url,
    users: FOSSIL_SEED.users,
    tickets,
    repository,
    async stop() {
      await served.stop();
      removeDir(dir);
    },
  };
}
