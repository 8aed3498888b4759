import { crx } from '@crxjs/vite-plugin';
import { resolve } from 'node:path';
import { build, defineConfig, type Plugin } from 'vite';
import { buildManifest } from './manifest.config.ts';
import { writeIcons } from './scripts/icons.ts';
import { yieldPoints } from './scripts/yield-points.ts';

const root = import.meta.dirname;

/** Icons are drawn by a script, before crx reads the manifest that names them. */
function icons(): Plugin {
  return {
    name: 'tabwright:icons',
    config() {
      writeIcons(resolve(root, 'public/icons'));
    },
  };
}

/**
 * Scripts that run in web pages are bundled on their own as self-contained IIFEs beside the
 * extension: `chrome.scripting` injects the page agent with `executeScript({ files })`, and the
 * main-world and dialog-relay scripts are registered content scripts; both run classic scripts only.
 */
const PAGE_SCRIPTS = [
  { entry: 'src/page/main.ts', name: 'tabwrightPageAgent', file: 'page/agent.js' },
  { entry: 'src/page/main-world/index.ts', name: 'tabwrightMainWorld', file: 'page/main-world.js' },
  { entry: 'src/platform/dialog-relay-script.ts', name: 'tabwrightDialogRelay', file: 'page/dialog-relay.js' },
];

/**
 * Names shortened and whitespace gone, but no rewriting: the compressor turns DOMPurify's
 * argument-copying loops into `[...arguments].slice(n)`, an iterator and two arrays on every call
 * it makes, and a streamed reply then left about 70% more garbage behind.
 */
const MINIFY = { compress: false, mangle: true };

function pageScripts(minify: boolean): Plugin {
  let outDir = '';
  return {
    name: 'tabwright:page-scripts',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      for (const script of PAGE_SCRIPTS) {
        await build({
          configFile: false,
          logLevel: 'warn',
          build: {
            outDir,
            emptyOutDir: false,
            minify,
            rolldownOptions: { output: { minify: minify ? MINIFY : false } },
            sourcemap: false,
            lib: {
              entry: resolve(root, script.entry),
              formats: ['iife'],
              name: script.name,
              fileName: () => script.file,
            },
          },
        });
      }
    },
  };
}

export default defineConfig(({ mode }) => {
  const flavour = mode === 'test' ? 'test' : 'release';
  const outDir = flavour === 'test' ? 'dist-test' : 'dist';
  return {
    plugins: [icons(), yieldPoints(), crx({ manifest: buildManifest(flavour) }), pageScripts(flavour === 'release')],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'chrome116',
      sourcemap: flavour === 'test',
      chunkSizeWarningLimit: 1500,
      rolldownOptions: { output: { minify: MINIFY } },
    },
    define: {
      __TABWRIGHT_TEST_BUILD__: JSON.stringify(flavour === 'test'),
    },
  };
});
