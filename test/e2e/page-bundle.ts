/**
 * Test pages that need npm packages get them bundled by vite's `build`, as a library build into
 * one classic script (plus the stylesheet the packages import, if any), kept in memory: the
 * scratch directory is gone once the bundle is read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import { ROOT } from './harness';

/** Bundles `entry` (relative to the repository) as `<name>.js` and `<name>.css`; resolves with the files by name. */
export async function bundlePage(entry: string, name: string): Promise<Map<string, Buffer>> {
  const outDir = mkdtempSync(join(tmpdir(), `tabwright-bundle-${name}-`));
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
    const files = new Map<string, Buffer>();
    for (const file of await readdir(outDir)) files.set(file, await readFile(join(outDir, file)));
    return files;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}
