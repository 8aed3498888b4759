/**
 * The task suite's pages (test/fixtures/tasks/): each library page's script is bundled from the
 * installed npm package with vite's `build`, with the library's own stylesheet beside it, and
 * served under /tasks/build/<page>/. Native controls need no bundle.
 */
import { mkdtempSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { build } from 'vite';
import type { Route } from './fixture-server';
import { ROOT } from './harness';
import { serveShoelaceAssets } from './actions-rig';

/** Page name → its entry under test/fixtures/tasks/. */
const BUNDLES: Record<string, string> = {
  material: 'material.ts',
  shoelace: 'shoelace.ts',
  flatpickr: 'flatpickr.ts',
  'tom-select': 'tom-select.ts',
  quill: 'quill.ts',
  ace: 'ace.ts',
  sortable: 'sortable.ts',
  filepond: 'filepond.ts',
  react: 'react-app.tsx',
};

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

async function bundle(name: string, entry: string): Promise<string> {
  const outDir = mkdtempSync(join(tmpdir(), `tabwright-tasks-${name}-`));
  await build({
    configFile: false,
    logLevel: 'warn',
    // React reads NODE_ENV at run time; a library build would otherwise leave `process` in the page.
    // and the JSX transform follows the test runner's NODE_ENV unless told: both are production builds.
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    oxc: { jsx: { runtime: 'automatic', importSource: 'react', development: false } },
    build: {
      outDir,
      emptyOutDir: true,
      minify: false,
      // Headless UI marks its modules "use client", which means nothing in a page bundle.
      rollupOptions: { onwarn: (warning, warn) => warning.code === 'MODULE_LEVEL_DIRECTIVE' || warn(warning) },
      lib: {
        entry: join(ROOT, 'test/fixtures/tasks', entry),
        formats: ['iife'],
        name: 'taskPage',
        fileName: () => `${name}.js`,
        cssFileName: name,
      },
    },
  });
  return outDir;
}

/** Builds every bundle (in parallel) and answers with the routes that serve them. */
export async function taskPageRoutes(): Promise<Route[]> {
  const names = Object.keys(BUNDLES);
  const dirs = await Promise.all(names.map((name) => bundle(name, BUNDLES[name]!)));
  const byName = new Map(names.map((name, i) => [name, dirs[i]!]));
  const serveBuilt: Route = async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://fixture').pathname);
    const match = /^\/tasks\/build\/([^/]+)\/([^/]+)$/.exec(path);
    if (!match) return false;
    const dir = byName.get(match[1]!);
    const file = dir && normalize(join(dir, match[2]!));
    const type = TYPES[extname(match[2]!)];
    if (!dir || !file || !file.startsWith(dir) || !type) return (response.writeHead(404).end(), true);
    try {
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
      response.end(body);
    } catch {
      response.writeHead(404).end();
    }
    return true;
  };
  return [serveBuilt, serveShoelaceAssets()];
}
