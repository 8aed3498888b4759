import { defineConfig } from 'vitest/config';
import { scratchConfigDir } from './test/scratch-config.ts';

const config = scratchConfigDir();

export default defineConfig({
  define: { __TABWRIGHT_TEST_BUILD__: 'true' },
  test: {
    include: [
      'src/**/*.test.ts',
      'broker/**/*.test.ts',
      'scripts/**/*.test.ts',
      'test/unit/**/*.test.ts',
      'test/integration/**/*.test.ts',
    ],
    environment: 'node',
    env: { XDG_CONFIG_HOME: config },
    testTimeout: 20_000,
  },
});
