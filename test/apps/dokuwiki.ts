/**
 * A real DokuWiki (Debian's package) served by PHP's built-in server on loopback. Its config and
 * data live in a temp dir: a prepended PHP file points DOKU_CONF there (Debian's preload honours
 * it), and the local config moves `savedir`. Pages are seeded as files and indexed so search works;
 * seeding takes a fraction of a second, so every start seeds afresh.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
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
  type RunningApp,
} from './common';
import { DOKUWIKI_SEED } from './seed-data';

const DOKUWIKI_ROOT = '/usr/share/dokuwiki';
const PHP = '/usr/bin/php';
/** PHP's notices about the CLI indexer's missing request headers are noise. */
const QUIET = ['-d', 'display_errors=stderr', '-d', 'error_reporting=E_ERROR'];

export async function ensureDokuWiki(): Promise<void> {
  await ensurePackages([debPackage('dokuwiki', join(DOKUWIKI_ROOT, 'doku.php')), debPackage('php-cli', PHP)]);
}

async function passwordHash(password: string): Promise<string> {
  const { stdout } = await run(PHP, ['-r', 'echo password_hash($argv[1], PASSWORD_BCRYPT);', password]);
  return stdout.trim();
}

/** Writes conf/ and data/ for a wiki living in `dir`. */
async function writeWiki(dir: string): Promise<void> {
  const conf = join(dir, 'conf');
  const data = join(dir, 'data');
  mkdirSync(conf, { recursive: true });
  cpSync('/var/lib/dokuwiki/data', data, { recursive: true, dereference: true });
  removeDir(join(data, 'pages'));
  for (const sub of ['pages', 'meta', 'attic', 'index', 'cache', 'locks', 'tmp', 'log']) {
    mkdirSync(join(data, sub), { recursive: true });
  }
  writeFileSync(
    join(conf, 'local.php'),
    [
      '<?php',
      "$conf['title'] = 'Tabwright test wiki';",
      `$conf['savedir'] = ${JSON.stringify(data)};`,
      "$conf['useacl'] = 1;",
      "$conf['superuser'] = '@admin';",
      "$conf['disableactions'] = 'register';",
      "$conf['userewrite'] = 0;",
      '',
    ].join('\n'),
  );
  // Signed-out visitors may read nothing; signed-in users may edit.
  writeFileSync(join(conf, 'acl.auth.php'), '*\t@ALL\t0\n*\t@user\t8\n');
  const users = await Promise.all(
    DOKUWIKI_SEED.users.map(
      async (user) =>
        `${user.login}:${await passwordHash(user.password)}:${user.login[0]!.toUpperCase()}${user.login.slice(1)}:${user.login}@example.com:user`,
    ),
  );
  writeFileSync(join(conf, 'users.auth.php'), `${users.join('\n')}\n`);
  writeFileSync(join(dir, 'prepend.php'), `<?php\ndefine('DOKU_CONF', ${JSON.stringify(`${conf}/`)});\n`);
  for (const page of DOKUWIKI_SEED.pages) {
    const file = join(data, 'pages', `${page.id.replaceAll(':', '/')}.txt`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, page.text);
  }
}

async function index(dir: string): Promise<void> {
  await run(PHP, ['-d', `auto_prepend_file=${join(dir, 'prepend.php')}`, ...QUIET, 'bin/indexer.php', '-q'], {
    cwd: DOKUWIKI_ROOT,
  });
}

export async function startDokuWiki(): Promise<RunningApp> {
  await ensureDokuWiki();
  const dir = stateDir('dokuwiki');
  await timed('dokuwiki seed', async () => {
    await writeWiki(dir);
    await index(dir);
  });
  const port = await freePort();
  const served = serve(
    PHP,
    ['-d', `auto_prepend_file=${join(dir, 'prepend.php')}`, ...QUIET, '-S', `127.0.0.1:${port}`, '-t', DOKUWIKI_ROOT],
    { cwd: DOKUWIKI_ROOT },
  );
  const url = `http://127.0.0.1:${port}`;
  await timed('dokuwiki start', () => waitForHttp(`${url}/doku.php`, served));
  return {
    url,
    users: DOKUWIKI_SEED.users,
    async stop() {
      await served.stop();
      removeDir(dir);
    },
  };
}
