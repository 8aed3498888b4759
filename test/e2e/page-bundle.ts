/**
 * Test pages that need npm packages get them bundled by vite's `build`, as a library build into
 * one classic script (plus the stylesheet the packages import, if any). A bundle is kept on disk
 * under node_modules/.cache, keyed by everything that makes it (the entry's folder, the lock file,
 * this file): the suites that serve the same pages, and the benches, build each one once per
 * change instead of once per file.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { ROOT } from './harness';

const CACHE = join(ROOT, 'node_modules/.cache/tabwright-page-bundles');

/** Every file under `dir`, by path, in a stable order. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => a.name.localeCompare(b.name))
    .flatMap((item) => (item.isDirectory() ? filesUnder(join(dir, item.name)) : [join(dir, item.name)]));
}

/** What the bundle of `entry` depends on, as one hash. */
function keyOf(entry: string, name: string): string {
  const hash = createHash('sha256').update(`${entry}\0${name}\0`);
  const sources = [
    ...filesUnder(dirname(join(ROOT, entry))),
    join(ROOT, 'package-lock.json'),
    fileURLToPath(import.meta.url),
  ];
  for (const file of sources) hash.update(`${relative(ROOT, file)}\0`).update(readFileSync(file));
  return hash.digest('hex').slice(0, 32);
}

async function readFiles(dir: string): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const file of await readdir(dir)) files.set(file, await readFile(join(dir, file)));
  return files;
}

/** Bundles `entry` (relative to the repository) as `<name>.js` and `<name>.css`; resolves with the files by name. */
export async function bundlePage(entry: string, name: string): Promise<Map<string, Buffer>> {
  const cached = join(CACHE, `${name}-${keyOf(entry, name)}`);
  if (existsSync(cached)) return readFiles(cached);
  mkdirSync(CACHE, { recursive: true });
  // Built beside the cache and renamed into it whole, so a reader never sees half a bundle.
  const outDir = mkdtempSync(join(CACHE, `.${name}-`));
  try {
    await build({
      configFile: false,
      logLevel: 'warn',
      // The project's public/ folder (icons, locales) belongs to the extension, not to test pages.
      publicDir: false,
      // React reads NODE_ENV at run time; a library build would otherwise leave `process` in the page.
      // and the JSX transform follows the test runner's NODE_ENV unless told: both are production builds.
      define: { 'process.env.NODE_ENV': JSON.stringify('production') },
      oxc: { jsx: { runtime: 'automatic', importSource: 'react', development: false } },
      build: {
        outDir,
        emptyOutDir: true,
        minify: false,
        // Headless UI marks its modules "use client", which means nothing in a page bundle;
        // Monaco reads `import.meta.url` only to start language workers, which its page does not use.
        rollupOptions: {
          onwarn: (warning, warn) =>
            warning.code === 'MODULE_LEVEL_DIRECTIVE' || warning.code === 'EMPTY_IMPORT_META' || warn(warning),
        },
        lib: {
          entry: join(ROOT, entry),
          formats: ['iife'],
          name: 'testPage',
          fileName: () => `${name}.js`,
          cssFileName: name,
        },
      },
    });
    const files = await readFiles(outDir);
    try {
      renameSync(outDir, cached);
    } catch {
      // Another run put the same bundle there first.
    }
    return files;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
