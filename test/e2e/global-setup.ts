import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CHROMIUM, TEST_DIST } from './harness';

/** e2e runs against the built test extension; `npm test` builds it first. */
export default function setup(): void {
  if (!existsSync(join(TEST_DIST, 'manifest.json'))) {
    throw new Error('dist-test/ is missing: run `npm run build:test` first (npm test does this).');
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(`Chromium not found at ${CHROMIUM}. Install it: apt-get install -y chromium (or set CHROME_PATH).`);
  }
}
