/**
 * A real Redmine 5.0 (Debian's package) on loopback under WEBrick, seeded with `bin/rails runner`.
 * Each start is its own Debian "instance" (a symlink under /var/lib/redmine to a temp dir holding
 * its database, secret, logs and cache), so runs never share state with each other or the system.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
import { REDMINE_SEED } from './seed-data';

const SEED_VERSION = 2;
export const REDMINE_ROOT = '/usr/share/redmine';
const INSTANCES = '/var/lib/redmine';

export interface SeededIssue {
  id: number;
  subject: string;
  assignee: string;
  status: string;
}

export interface RedmineApp extends RunningApp {
  readonly issues: readonly SeededIssue[];
}

export async function ensureRedmine(): Promise<void> {
  await ensurePackages([
    debPackage('redmine', join(REDMINE_ROOT, 'config.ru')),
    debPackage('redmine-sqlite', '/usr/share/doc/redmine-sqlite'),
    debPackage('ruby-webrick', '/usr/share/doc/ruby-webrick'),
  ]);
  // Debian's Gemfile names no app server: add WEBrick and let Bundler resolve a fresh lock.
  const local = join(REDMINE_ROOT, 'Gemfile.local');
  if (!existsSync(local) || !readFileSync(local, 'utf8').includes('webrick')) {
    try {
      writeFileSync(local, "gem 'webrick'\n");
      rmSync(join(REDMINE_ROOT, 'Gemfile.lock'), { force: true });
    } catch (error) {
      throw new Error(
        `Redmine needs WEBrick in ${local} (run as root once: echo "gem 'webrick'" > ${local} && rm -f ${REDMINE_ROOT}/Gemfile.lock): ${(error as Error).message}`,
        { cause: error },
      );
    }
  }
}

/** A Debian Redmine instance whose files live in `dir`. */
function makeInstance(dir: string): { name: string; env: NodeJS.ProcessEnv; remove(): void } {
  for (const sub of ['config', 'tmp/cache', 'log', 'files', 'public']) mkdirSync(join(dir, sub), { recursive: true });
  writeFileSync(
    join(dir, 'config', 'database.yml'),
    `production:\n  adapter: sqlite3\n  database: ${join(dir, 'redmine.sqlite3')}\n  encoding: utf8\n`,
  );
  writeFileSync(join(dir, 'config', 'secret_key.txt'), randomBytes(32).toString('hex'));
  const name = `tabwright-${process.pid}-${randomBytes(3).toString('hex')}`;
  const link = join(INSTANCES, name);
  try {
    symlinkSync(dir, link);
  } catch (error) {
    throw new Error(`Cannot create the Redmine instance ${link} (run the tests as root): ${(error as Error).message}`, {
      cause: error,
    });
  }
  return {
    name,
    env: { ...process.env, X_DEBIAN_SITEID: name, RAILS_ENV: 'production', REDMINE_LANG: 'en' },
    remove: () => rmSync(link, { force: true }),
  };
}

async function seedTemplate(dir: string): Promise<SeededIssue[]> {
  const instance = makeInstance(dir);
  try {
    await run(join(REDMINE_ROOT, 'bin/rake'), ['db:migrate'], {
      cwd: REDMINE_ROOT,
      env: instance.env,
      maxBuffer: 64 << 20,
    });
    await run(join(REDMINE_ROOT, 'bin/rake'), ['redmine:load_default_data'], {
      cwd: REDMINE_ROOT,
      env: instance.env,
      maxBuffer: 64 << 20,
    });
    const { stdout } = await run(
      join(REDMINE_ROOT, 'bin/rails'),
      ['runner', join(import.meta.dirname, 'redmine', 'seed.rb')],
      {
        cwd: REDMINE_ROOT,
        env: instance.env,
        maxBuffer: 64 << 20,
      },
    );
    const line = stdout.split('\n').find((l) => l.startsWith('SEEDED '));
    if (!line) throw new Error(`The Redmine seed printed no summary:\n${stdout}`);
    const { issues } = JSON.parse(line.slice('SEEDED '.length)) as { issues: SeededIssue[] };
    writeFileSync(join(dir, 'issues.json'), JSON.stringify(issues));
    return issues;
  } finally {
    instance.remove();
  }
}

async function template(): Promise<{ database: string; issues: SeededIssue[] }> {
  const dir = cacheDir(`redmine-v${SEED_VERSION}`);
  const database = join(dir, 'redmine.sqlite3');
  const issuesFile = join(dir, 'issues.json');
  if (existsSync(database) && existsSync(issuesFile)) {
    return { database, issues: JSON.parse(readFileSync(issuesFile, 'utf8')) as SeededIssue[] };
  }
  const issues = await timed('redmine seed', () => seedTemplate(dir));
  return { database, issues };
}

export async function startRedmine(): Promise<RedmineApp> {
  await ensureRedmine();
  const { database, issues } = await template();
  const dir = stateDir('redmine');
  const instance = makeInstance(dir);
  copyFileSync(database, join(dir, 'redmine.sqlite3'));
  const port = await freePort();
  const served = serve(
    join(REDMINE_ROOT, 'bin/rails'),
    ['server', '-u', 'webrick', '-b', '127.0.0.1', '-p', String(port), '-P', join(dir, 'tmp', 'server.pid')],
    { cwd: REDMINE_ROOT, env: instance.env },
  );
  const url = `http://127.0.0.1:${port}`;
  try {
    await timed('redmine start', () => waitForHttp(`${url}/login`, served, 180_000));
  } catch (error) {
    await served.stop();
    instance.remove();
    removeDir(dir);
    throw error;
  }
  return {
    url,
    users: REDMINE_SEED.users,
    issues,
    async stop() {
      await served.stop();
      instance.remove();
      removeDir(dir);
    },
  };
}
