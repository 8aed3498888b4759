/**
 * A managed policy for a copy of the test build, written where Debian's Chromium reads policy
 * (`/etc/chromium/policies/managed/`). The copy gets a key of its own, so its extension id — and
 * with it the policy — touches no other Chromium running the usual test build. Writing there
 * needs root: without it the rig fails naming the step, it never skips.
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { TEST_DIST } from './harness';

export const POLICY_DIR = process.env.TABWRIGHT_POLICY_DIR ?? '/etc/chromium/policies/managed';
const PREFIX = 'tabwright-e2e-';

/** Chrome's id for an extension key: the SHA-256 of the key, its first 32 hex digits spelled a–p. */
export function extensionIdOf(publicKeyDer: Buffer): string {
  const hex = createHash('sha256').update(publicKeyDer).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode(97 + parseInt(digit, 16))).join('');
}

export interface PolicyRig {
  dist: string;
  extensionId: string;
  /** Writes the policy Chromium reads for the copy (Chromium notices on its own or on reload). */
  write(policy: Record<string, unknown>): void;
  close(): void;
}

export function startPolicyRig(): PolicyRig {
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error(`writing a managed policy to ${POLICY_DIR} needs root; run the policy tests as root`);
  }
  mkdirSync(POLICY_DIR, { recursive: true });
  // A crashed run's file would set policy for an id nothing uses, but it is ours to clean.
  for (const name of readdirSync(POLICY_DIR)) if (name.startsWith(PREFIX)) rmSync(join(POLICY_DIR, name));
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const extensionId = extensionIdOf(der);
  const dist = mkdtempSync(join(tmpdir(), 'tabwright-policy-dist-'));
  cpSync(TEST_DIST, dist, { recursive: true });
  const manifestPath = join(dist, 'manifest.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>;
  writeFileSync(manifestPath, JSON.stringify({ ...manifest, key: der.toString('base64') }));
  const file = join(POLICY_DIR, `${PREFIX}${extensionId}.json`);
  return {
    dist,
    extensionId,
    write(policy) {
      writeFileSync(file, JSON.stringify({ '3rdparty': { extensions: { [extensionId]: policy } } }));
    },
    close() {
      rmSync(file, { force: true });
      rmSync(dist, { recursive: true, force: true });
    },
  };
}

/** Makes Chromium read its policy files now, as chrome://policy's "Reload policies" does. */
export async function reloadPolicies(context: BrowserContext): Promise<void> {
  const page = await context.newPage();
  try {
    await page.goto('chrome://policy');
    await page.locator('#reload-policies').click();
    await page.waitForTimeout(500);
  } finally {
    await page.close();
  }
}
