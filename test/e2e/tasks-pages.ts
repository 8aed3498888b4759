/**
 * The task suite's pages (test/fixtures/tasks/): each library page's script is bundled from the
 * installed npm package with vite's `build`, with the library's own stylesheet beside it, and
 * served under /tasks/build/<page>/. Native controls need no bundle.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
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

/** Builds one page's bundle into a scratch directory and keeps its files in memory, removing the directory. */
async function bundle(name: string, entry: string): Promise<Map<string, Buffer>> {
  const outDir = mkdtempSync(join(tmpdir(), `tabwright-tasks-${name}-`));
  try {
    await build({
      configFile: false,
      logLevel: 'warn',
      // The project's public/ folder (icons, locales) belongs to the extension, not to these pages.
      publicDir: false,
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
    const files = new Map<string, Buffer>();
    for (const file of await readdir(outDir)) {
      if (TYPES[extname(file)]) files.set(file, await readFile(join(outDir, file)));
    }
    return files;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** Builds every bundle (in parallel) and answers with the routes that serve them. */
export async function taskPageRoutes(): Promise<Route[]> {
  const names = Object.keys(BUNDLES);
  const built = await Promise.all(names.map((name) => bundle(name, BUNDLES[name]!)));
  const byName = new Map(names.map((name, i) => [name, built[i]!]));
  const serveBuilt: Route = async (request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://fixture').pathname);
    const match = /^\/tasks\/build\/([^/]+)\/([^/]+)$/.exec(path);
    if (!match) return false;
    const body = byName.get(match[1]!)?.get(match[2]!);
    const type = TYPES[extname(match[2]!)];
    if (!body || !type) return (response.writeHead(404).end(), true);
    response.writeHead(200, { 'content-type': type, 'cache-control': 'no-store' });
    response.end(body);
    return true;
  };
  return [serveBuilt, serveShoelaceAssets()];
}
