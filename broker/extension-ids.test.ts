import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import testKey from '../test/extension-key.json' with { type: 'json' };
import { EXTENSION_ID_PATTERN, extensionIdOf, parseExtensionIds, TEST_BUILD_EXTENSION_ID } from './extension-ids';

/** Chrome's rule: SHA-256 of the DER public key, first 16 bytes, hex digits 0–f spelled a–p. */
function idFromKey(base64Key: string): string {
  const hex = createHash('sha256').update(Buffer.from(base64Key, 'base64')).digest('hex').slice(0, 32);
  return [...hex].map((digit) => String.fromCharCode('a'.charCodeAt(0) + parseInt(digit, 16))).join('');
}

describe('extension ids', () => {
  it('is the id Chrome derives from the test build’s key', () => {
    expect(idFromKey(testKey.key)).toBe(TEST_BUILD_EXTENSION_ID);
    expect(TEST_BUILD_EXTENSION_ID).toMatch(EXTENSION_ID_PATTERN);
  });

  it('takes repeated and comma-separated --extension-id values', () => {
    const a = 'a'.repeat(32);
    const p = 'p'.repeat(32);
    expect(parseExtensionIds([a, ` ${p} ,${a}`])).toEqual([a, p]);
    expect(parseExtensionIds([])).toEqual([]);
  });

  it('refuses what is not an id, saying what one looks like', () => {
    for (const bad of ['', 'a'.repeat(31), 'a'.repeat(33), 'q'.repeat(32), 'A'.repeat(32), `${'a'.repeat(32)},`]) {
      expect(() => parseExtensionIds([bad])).toThrow(/32 letters a–p/);
    }
  });

  it('reads the id out of an extension Origin only', () => {
    expect(extensionIdOf(`chrome-extension://${TEST_BUILD_EXTENSION_ID}`)).toBe(TEST_BUILD_EXTENSION_ID);
    expect(extensionIdOf(`chrome-extension://${TEST_BUILD_EXTENSION_ID}/`)).toBeUndefined();
    expect(extensionIdOf(`https://${TEST_BUILD_EXTENSION_ID}`)).toBeUndefined();
    expect(extensionIdOf('chrome-extension://abc')).toBeUndefined();
  });
});
