/**
 * A real MantisBT (the upstream tree in test/apps/mantisbt/, unmodified) under PHP's built-in
 * server on loopback, with a MariaDB server of its own: a temp data directory, a private socket
 * and no network. Composer is not reachable here, so a small vendor/autoload.php loads the same
 * libraries from Debian's packages. MantisBT is installed through its installer form and seeded
 * through its own pages — projects, users, issues, notes — as an administrator and its users would.
 */
import { appendFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  debPackage,
  ensurePackages,
  freePort,
  removeDir,
  run,
  serve,
  stateDir,
  timed,
  waitForHttp,
  type AppUser,
  type RunningApp,
  type Served,
} from './common';
import { MantisVisitor, type Page } from './mantisbt-pages';
import { MANTISBT_SEED } from './seed-data';

export const MANTISBT_ARCHIVE = join(import.meta.dirname, 'mantisbt', 'mantisbt-b50cdcfeb0d3.tar.gz');
const PHP = '/usr/bin/php';
const MARIADBD = '/usr/sbin/mariadbd';
const DB = { name: 'mantis', user: 'mantis', password: 'mantis-test-password' };

export interface SeededMantisIssue {
  id: number;
  project: string;
  category: string;
  summary: string;
  status: string;
  reporter: string;
  handler: string | null;
}

/** Faults the setup can make happen once, on the next note or issue submitted. */
export type MantisFault = 'stale-token' | 'slow-submit';

export interface MantisApp extends RunningApp {
  /** Where MantisBT answers, ending in `/` (`…/mantis/` on a sub-path install). */
  readonly site: string;
  readonly issues: readonly SeededMantisIssue[];
  readonly projects: Readonly<Record<string, number>>;
  /** A visitor signed in as `login`, for checking what MantisBT shows. */
  visitor(login: string): Promise<MantisVisitor>;
  /** Makes `fault` happen on the next submitted note or issue. */
  arm(fault: MantisFault): void;
}

export async function ensureMantisBT(): Promise<void> {
  await ensurePackages([
    debPackage('php-cli', PHP),
    debPackage('php-mysql', '/usr/share/doc/php8.2-mysql'),
    debPackage('php-mbstring', '/usr/share/doc/php8.2-mbstring'),
    debPackage('php-xml', '/usr/share/doc/php8.2-xml'),
    debPackage('php-curl', '/usr/share/doc/php8.2-curl'),
    debPackage('php-gd', '/usr/share/doc/php8.2-gd'),
    debPackage('mariadb-server', MARIADBD),
    debPackage('libphp-adodb', '/usr/share/php/adodb/adodb.inc.php'),
    debPackage('php-parsedown', '/usr/share/php/Parsedown/autoload.php'),
    debPackage('php-htmlpurifier', '/usr/share/php/HTMLPurifier.auto.php'),
    debPackage('libphp-phpmailer', '/usr/share/php/libphp-phpmailer/autoload.php'),
    debPackage('php-slim', '/usr/share/php/Slim/autoload.php'),
    debPackage('php-guzzlehttp-guzzle', '/usr/share/php/GuzzleHttp/autoload.php'),
  ]);
}

/** Composer's autoloader, replaced by Debian's copies of the same libraries. */
const AUTOLOAD = `<?php
require_once '/usr/share/php/adodb/adodb.inc.php';
require_once '/usr/share/php/Parsedown/autoload.php';
require_once '/usr/share/php/HTMLPurifier.auto.php';
require_once '/usr/share/php/libphp-phpmailer/autoload.php';
require_once '/usr/share/php/Slim/autoload.php';
require_once '/usr/share/php/GuzzleHttp/autoload.php';
spl_autoload_register(function ($class) {
	if ($class === 'VBoctor\\\\Email\\\\DisposableEmailChecker') {
		require __DIR__ . '/disposable-email-checker.php';
	} elseif (strncmp($class, 'Mantis\\\\', 7) === 0) {
		$file = dirname(__DIR__) . '/' . str_replace('\\\\', '/', substr($class, 7)) . '.php';
		if (is_file($file)) require $file;
	}
});
`;

/** The one class of vboctor/disposable_email_checker MantisBT calls (no address is disposable here). */
const DISPOSABLE = `<?php
namespace VBoctor\\Email;
class DisposableEmailChecker {
	public static function is_disposable_email($p_email) { return false; }
}
`;

/** Site settings the seed relies on: no mail, passwords set by the administrator, real names shown. */
const SETTINGS = `
$g_enable_email_notification = OFF;
$g_send_reset_password = OFF;
$g_allow_signup = OFF;
$g_reauthentication = OFF;
$g_admin_checks = OFF;
$g_show_realname = ON;
# Only developers may make notes private: reporters like bob may not.
$g_set_view_status_threshold = DEVELOPER;
`;

/** Runs before every request: makes an armed fault happen once, on the next note or issue POST. */
function faultsHook(dir: string): string {
  return `<?php
$t_faults = ${JSON.stringify(dir)};
$t_script = basename($_SERVER['SCRIPT_FILENAME'] ?? '');
if (($_SERVER['REQUEST_METHOD'] ?? '') === 'POST' && in_array($t_script, ['bugnote_add.php', 'bug_report.php'], true)) {
	if (@unlink("$t_faults/stale-token")) {
		foreach (array_keys($_POST) as $t_key) {
			if (substr($t_key, -6) === '_token') $_POST[$t_key] = 'expired';
		}
	}
	if (@unlink("$t_faults/slow-submit")) sleep(25);
}
`;
}

interface Database {
  socket: string;
  stop(): Promise<void>;
}

async function startDatabase(dir: string): Promise<Database> {
  const data = join(dir, 'db');
  const socket = join(dir, 'mysqld.sock');
  const asRoot = process.getuid?.() === 0 ? ['--user=root'] : [];
  await run('mariadb-install-db', [
    '--no-defaults',
    `--datadir=${data}`,
    '--auth-root-authentication-method=socket',
    '--skip-test-db',
    ...asRoot,
  ]);
  const served: Served = serve(
    MARIADBD,
    [
      '--no-defaults',
      `--datadir=${data}`,
      `--socket=${socket}`,
      '--skip-networking',
      `--pid-file=${join(dir, 'mysqld.pid')}`,
      '--innodb-buffer-pool-size=32M',
      ...asRoot,
    ],
    {},
  );
  const client = (sql: string) => run('mariadb', ['--no-defaults', `--socket=${socket}`, '-uroot', '-e', sql]);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (served.child.exitCode !== null) throw new Error(`mariadbd exited:\n${served.output()}`);
    try {
      await client('SELECT 1');
      break;
    } catch (error) {
      if (Date.now() > deadline)
        throw new Error(`mariadbd did not answer: ${(error as Error).message}\n${served.output()}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  await client(
    `CREATE DATABASE ${DB.name} CHARACTER SET utf8mb4; CREATE USER '${DB.user}'@'localhost' IDENTIFIED BY '${DB.password}'; GRANT ALL ON ${DB.name}.* TO '${DB.user}'@'localhost';`,
  );
  return { socket, stop: () => served.stop() };
}

/** Unpacks the archive into `docroot` (or `docroot/mantis` for a sub-path install). */
async function unpack(docroot: string, subPath: boolean): Promise<string> {
  mkdirSync(docroot, { recursive: true });
  await run('tar', ['-xzf', MANTISBT_ARCHIVE, '-C', docroot]);
  const tree = join(docroot, 'mantisbt');
  if (subPath) symlinkSync(tree, join(docroot, 'mantis'));
  mkdirSync(join(tree, 'vendor'), { recursive: true });
  writeFileSync(join(tree, 'vendor', 'autoload.php'), AUTOLOAD);
  writeFileSync(join(tree, 'vendor', 'disposable-email-checker.php'), DISPOSABLE);
  return tree;
}

async function install(site: string, tree: string): Promise<void> {
  const form = new URLSearchParams({
    install: '2',
    db_type: 'mysqli',
    hostname: 'localhost',
    db_username: DB.user,
    db_password: DB.password,
    database_name: DB.name,
    admin_username: '',
    admin_password: '',
    db_table_prefix: 'mantis',
    db_table_plugin_prefix: 'plugin',
    db_table_suffix: '_table',
    timezone: 'UTC',
    path: site,
  });
  const response = await fetch(`${site}admin/install.php`, {
    method: 'POST',
    body: form,
    signal: AbortSignal.timeout(120_000),
  });
  const html = await response.text();
  const config = join(tree, 'config', 'config_inc.php');
  if (!response.ok || !existsSync(config) || /\bBAD\b/.test(html.replace(/<[^>]+>/g, ' '))) {
    throw new Error(
      `The MantisBT installer failed (HTTP ${response.status}):\n${html.replace(/<[^>]+>/g, ' ').slice(0, 3000)}`,
    );
  }
  appendFileSync(config, SETTINGS);
}

function optionValue(page: Page, select: string, label: string): string {
  const options = Array.from(page.document.querySelectorAll<HTMLOptionElement>(`select[name="${select}"] option`));
  const found = options.find((o) => o.textContent?.trim() === label);
  if (!found) {
    throw new Error(
      `No option "${label}" in ${select} on ${page.url}: ${options.map((o) => o.textContent?.trim()).join(', ')}`,
    );
  }
  return found.value;
}

const userLabel = (login: string) =>
  login === 'administrator'
    ? 'administrator'
    : `${MANTISBT_SEED.users.find((u) => u.login === login)!.realname} (${login})`;

async function seed(site: string): Promise<{ issues: SeededMantisIssue[]; projects: Record<string, number> }> {
  const visitors = new Map<string, MantisVisitor>();
  const as = async (login: string) => {
    let visitor = visitors.get(login);
    if (!visitor) {
      visitor = new MantisVisitor(site);
      const password =
        login === 'administrator'
          ? MANTISBT_SEED.admin.password
          : MANTISBT_SEED.users.find((u) => u.login === login)!.password;
      await visitor.signIn(login, password);
      visitors.set(login, visitor);
    }
    return visitor;
  };
  const admin = await as('administrator');

  const projects: Record<string, number> = {};
  for (const project of MANTISBT_SEED.projects) {
    const created = await admin.submit(await admin.get('manage_proj_create_page.php'), '#manage-project-create-form', {
      name: project.name,
      description: project.description,
    });
    const link = Array.from(
      created.document.querySelectorAll<HTMLAnchorElement>('a[href*="manage_proj_edit_page.php"]'),
    ).find((a) => a.textContent?.trim() === project.name);
    const id = Number(new URL(link?.href ?? 'http://x/').searchParams.get('project_id'));
    if (!id) throw new Error(`MantisBT does not list the new project ${project.name}`);
    projects[project.name] = id;
    for (const category of project.categories) {
      await admin.submit(await admin.get(`manage_proj_edit_page.php?project_id=${id}`), '#project-add-category-form', {
        name: category,
      });
    }
  }

  for (const user of MANTISBT_SEED.users) {
    const page = await admin.get('manage_user_create_page.php');
    await admin.submit(page, '#manage-user-create-form', {
      username: user.login,
      realname: user.realname,
      email: `${user.login}@example.com`,
      password: user.password,
      password_verify: user.password,
      access_level: optionValue(page, 'access_level', user.access),
    });
  }

  const issues: SeededMantisIssue[] = [];
  for (const issue of MANTISBT_SEED.issues) {
    const reporter = await as(issue.reporter);
    const form = await reporter.get(`bug_report_page.php?project_id=${projects[issue.project]}`);
    const values: Record<string, string> = {
      category_id: optionValue(form, 'category_id', issue.category),
      severity: optionValue(form, 'severity', issue.severity),
      priority: optionValue(form, 'priority', issue.priority),
      summary: issue.summary,
      description: issue.description,
    };
    const attachment = 'attachment' in issue ? issue.attachment : undefined;
    const shown = await reporter.submit(form, '#report_bug_form', values, attachment ? { 'ufile[]': attachment } : {});
    const id = Number(new URL(shown.url).searchParams.get('id'));
    if (!id || !shown.document.querySelector('td.bug-summary')?.textContent?.includes(issue.summary)) {
      throw new Error(`MantisBT did not show the new issue "${issue.summary}" (landed on ${shown.url})`);
    }
    // The administrator assigns and moves each issue to its state, through the update form.
    const update = await admin.get(`bug_update_page.php?bug_id=${id}`);
    await admin.submit(update, '#update_bug_form', {
      status: optionValue(update, 'status', issue.status),
      handler_id: issue.handler ? optionValue(update, 'handler_id', userLabel(issue.handler)) : '0',
    });
    for (const note of issue.notes) {
      const author = await as(note.by);
      await author.submit(await author.get(`view.php?id=${id}`), '#bugnoteadd', {
        bugnote_text: note.text,
        private: note.private,
      });
    }
    issues.push({
      id,
      project: issue.project,
      category: issue.category,
      summary: issue.summary,
      status: issue.status,
      reporter: issue.reporter,
      handler: issue.handler,
    });
  }

  for (const relation of MANTISBT_SEED.relationships) {
    const from = issues[relation.from]!.id;
    const page = await admin.get(`view.php?id=${from}`);
    await admin.submit(page, 'form[action*="bug_relationship_add.php"]', {
      rel_type: optionValue(page, 'rel_type', relation.type),
      dest_bug_id: String(issues[relation.to]!.id),
    });
  }
  return { issues, projects };
}

export interface MantisOptions {
  /** Serve MantisBT under /mantis/ instead of at the root. */
  subPath?: boolean;
}

export async function startMantisBT(options: MantisOptions = {}): Promise<MantisApp> {
  await ensureMantisBT();
  const dir = stateDir('mantisbt');
  const faults = join(dir, 'faults');
  mkdirSync(faults);
  writeFileSync(join(dir, 'faults.php'), faultsHook(faults));
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    removeDir(dir);
  };
  try {
    const database = await timed('mantisbt database', () => startDatabase(dir));
    stops.push(database.stop);
    const docroot = join(dir, 'www');
    const tree = await timed('mantisbt unpack', () => unpack(docroot, options.subPath ?? false));
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const site = `${url}${options.subPath ? '/mantis/' : '/'}`;
    const served = serve(
      PHP,
      [
        '-d',
        `mysqli.default_socket=${database.socket}`,
        '-d',
        `auto_prepend_file=${join(dir, 'faults.php')}`,
        '-d',
        'display_errors=stderr',
        '-S',
        `127.0.0.1:${port}`,
        '-t',
        options.subPath ? docroot : tree,
      ],
      { cwd: tree, env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' }, group: true },
    );
    stops.push(() => served.stop());
    await waitForHttp(`${site}admin/install.php`, served);
    await timed('mantisbt install', () => install(site, tree));
    const { issues, projects } = await timed('mantisbt seed', () => seed(site));
    return {
      url,
      site,
      users: MANTISBT_SEED.users.map(({ login, password }): AppUser => ({ login, password })),
      issues,
      projects,
      async visitor(login) {
        const visitor = new MantisVisitor(site);
        const user =
          login === 'administrator' ? MANTISBT_SEED.admin : MANTISBT_SEED.users.find((u) => u.login === login)!;
        await visitor.signIn(login, user.password);
        return visitor;
      },
      arm(fault) {
        writeFileSync(join(faults, fault), '');
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
