import { availableParallelism } from 'node:os';
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
    // Vitest leaves a core free by default, which on a 2-core machine is one worker; the unit tests
    // wait on sockets and timers often enough that two share two cores well.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
