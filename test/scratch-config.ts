/**
 * Tests and the brokers they start never touch the user's config directory (the kept token): they
 * get a scratch one, removed when the test run's process exits.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function scratchConfigDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tabwright-test-config-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
