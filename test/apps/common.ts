/**
 * What the test apps share: Debian packages installed on demand (as root) or named in the error,
 * free loopback ports, child processes that die with their owner, waiting for a server to answer,
 * and a cache of seeded templates so a repeated start copies files instead of seeding again.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const run = promisify(execFile);

export interface AppUser {
  login: string;
  password: string;
}

/** A running app: where it answers, who can sign in, and how to stop it (state is removed). */
export interface RunningApp {
  readonly url: string;
  readonly users: readonly AppUser[];
  stop(): Promise<void>;
}

export interface DebianPackage {
  name: string;
  /** True when the package is already installed. */
  present(): boolean;
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0;

/** `debconf-set-selections` lines applied before installing, so no package asks or starts a web server. */
export const PRESEED = [
  'redmine redmine/instances/default/database-type select sqlite3',
  'redmine redmine/instances/default/dbconfig-install boolean true',
  'dokuwiki dokuwiki/system/configure-webserver multiselect',
  'dokuwiki dokuwiki/system/restart-webserver boolean false',
].join('\n');

export function installCommand(names: readonly string[]): string {
  return `apt-get install -y --no-install-recommends ${names.join(' ')}`;
}

/**
 * Installs the missing packages when running as root; otherwise fails naming the exact command.
 * A missing app is never a silent skip.
 */
export async function ensurePackages(packages: readonly DebianPackage[]): Promise<void> {
  const missing = packages.filter((p) => !p.present()).map((p) => p.name);
  if (missing.length === 0) return;
  if (!isRoot()) {
    throw new Error(
      `Test apps need Debian packages that are missing. Install them as root (with the answers preseeded in .ci/run):\n  ${installCommand(missing)}`,
    );
  }
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const preseed = join(mkdtempSync(join(tmpdir(), 'tabwright-preseed-')), 'selections');
  writeFileSync(preseed, `${PRESEED}\n`);
  await run('debconf-set-selections', [preseed], { env });
  await run('apt-get', ['update', '-qq'], { env, maxBuffer: 64 << 20 });
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...missing], { env, maxBuffer: 64 << 20 });
  const still = packages.filter((p) => !p.present()).map((p) => p.name);
  if (still.length) throw new Error(`apt-get did not install ${still.join(', ')}; run: ${installCommand(still)}`);
}

export function debPackage(name: string, file: string): DebianPackage {
  return { name, present: () => existsSync(file) };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The per-machine cache of seeded templates, keyed by app and seed version. */
export function cacheDir(name: string): string {
  const dir = join(process.env.TABWRIGHT_APP_CACHE ?? join(tmpdir(), 'tabwright-app-cache'), name);
  mkdirSync(dir, { recursive: true });
  return dir;
}

export function stateDir(name: string): string {
  return mkdtempSync(join(tmpdir(), `tabwright-${name}-`));
}

/** A server child process whose output is kept for the error message if it never answers. */
export interface Served {
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

const running = new Set<ChildProcess>();
const groups = new WeakMap<ChildProcess, boolean>();
process.once('exit', () => {
  for (const child of running) signal(child, groups.get(child) ?? false, 'SIGKILL');
});

/** Signals the child, or with `group` its whole process group (servers that fork workers). */
function signal(child: ChildProcess, group: boolean, name: NodeJS.Signals): void {
  try {
    if (group && child.pid) process.kill(-child.pid, name);
    else child.kill(name);
  } catch {
    // Already gone.
  }
}

export function serve(
  command: string,
  args: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; group?: boolean },
): Served {
  const { group = false, ...spawnOptions } = options;
  const child = spawn(command, args, { ...spawnOptions, detached: group, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  groups.set(child, group);
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    child,
    output: () => log,
    async stop() {
      running.delete(child);
      if (child.exitCode === null && child.signalCode === null) {
        signal(child, group, 'SIGTERM');
        const timer = setTimeout(() => signal(child, group, 'SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
      // Forked workers outlive their parent unless the group is told too.
      if (group) signal(child, true, 'SIGKILL');
    },
  };
}

/** Polls `url` until it answers (any HTTP status) or the server exits or time runs out. */
export async function waitForHttp(url: string, served: Served, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (served.child.exitCode !== null) {
      throw new Error(`${url} exited with ${served.child.exitCode} before answering:\n${served.output()}`);
    }
    try {
      await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(5_000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${served.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** Times a step, so setup costs can be reported (`TABWRIGHT_APP_TIMINGS=1`). */
export async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    if (process.env.TABWRIGHT_APP_TIMINGS) {
      console.log(`[apps] ${label}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
    }
  }
}
