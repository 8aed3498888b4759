#!/usr/bin/env node
/**
 * Makes a fresh clone runnable: installs the npm dependencies when they are missing, and Debian's
 * Chromium when it is missing (as root; otherwise prints the exact command). Plain Node, no
 * dependencies, because it runs before any are installed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const wants = new Set(process.argv.slice(2));

function run(command, args, options = {}) {
  console.log(`$ ${command} ${args.join(' ')}`);
  execFileSync(command, args, { stdio: 'inherit', cwd: root, ...options });
}

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;

export function ensureDebianPackages(packages) {
  const missing = packages.filter(({ check }) => !check());
  if (missing.length === 0) return;
  const names = missing.map(({ name }) => name);
  if (!isRoot) {
    console.error(`Missing system packages. Install them with:\n  sudo apt-get install -y ${names.join(' ')}`);
    process.exit(1);
  }
  run('apt-get', ['update', '-qq'], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  run('apt-get', ['install', '-y', '-qq', ...names], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

if (!existsSync(join(root, 'node_modules', '.package-lock.json'))) {
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

if (!wants.has('--no-chromium')) {
  const chromium = process.env.CHROME_PATH ?? '/usr/bin/chromium';
  ensureDebianPackages([{ name: 'chromium', check: () => existsSync(chromium) }]);
}
