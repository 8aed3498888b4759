import { defineConfig } from 'vitest/config';
import { scratchConfigDir } from './test/scratch-config.ts';

const config = scratchConfigDir();

/** End-to-end tests drive real Chromium and real servers, so they run one file at a time. */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    environment: 'node',
    env: { XDG_CONFIG_HOME: config },
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    globalSetup: ['test/e2e/global-setup.ts'],
    reporters: ['default'],
  },
});
