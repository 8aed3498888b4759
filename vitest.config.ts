import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// Tests and the brokers they start never touch the user's config directory (the kept token).
const config = mkdtempSync(join(tmpdir(), 'tabwright-test-config-'));

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
