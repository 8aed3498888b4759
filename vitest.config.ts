import { defineConfig } from 'vitest/config';

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
    testTimeout: 20_000,
  },
});
