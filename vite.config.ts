import { crx } from '@crxjs/vite-plugin';
import { resolve } from 'node:path';
import { build, defineConfig, type Plugin } from 'vite';
import { buildManifest } from './manifest.config.ts';
import { writeIcons } from './scripts/icons.ts';

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
 * The page agent is injected with `chrome.scripting.executeScript({ files })`, which runs classic
 * scripts only, so it is bundled on its own as one self-contained IIFE beside the extension.
 */
function pageAgent(minify: boolean): Plugin {
  let outDir = '';
  return {
    name: 'tabwright:page-agent',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await build({
        configFile: false,
        logLevel: 'warn',
        build: {
          outDir,
          emptyOutDir: false,
          minify,
          sourcemap: false,
          lib: {
            entry: resolve(root, 'src/page/main.ts'),
            formats: ['iife'],
            name: 'tabwrightPageAgent',
            fileName: () => 'page/agent.js',
          },
        },
      });
    },
  };
}

export default defineConfig(({ mode }) => {
  const flavour = mode === 'test' ? 'test' : 'release';
  const outDir = flavour === 'test' ? 'dist-test' : 'dist';
  return {
    plugins: [icons(), crx({ manifest: buildManifest(flavour) }), pageAgent(flavour === 'release')],
    build: {
      outDir,
      emptyOutDir: true,
      target: 'chrome116',
      sourcemap: flavour === 'test',
      chunkSizeWarningLimit: 1500,
    },
    define: {
      __TABWRIGHT_TEST_BUILD__: JSON.stringify(flavour === 'test'),
    },
  };
});
