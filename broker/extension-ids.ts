/**
 * Which extensions may open the broker's sockets: Chrome sends `Origin: chrome-extension://<id>`,
 * and the id cannot be forged by a web page or by another installed extension.
 */

/** A Chrome extension id: 32 letters a–p (128 bits written one hex digit per letter). */
export const EXTENSION_ID_PATTERN = /^[a-p]{32}$/;

/**
 * The test build's id (`npm run build:test`, loaded by `npm start`'s tests and the e2e suite).
 * manifest.config.ts gives that build the `key` in test/extension-key.json, and Chrome derives the
 * id from it: SHA-256 over the DER public key (the base64-decoded `key`), the first 16 bytes as 32
 * hex digits, each digit 0–f written as the letter a–p. extension-ids.test.ts recomputes it.
 */
export const TEST_BUILD_EXTENSION_ID = 'ehcicghloaajfaedooflphachhohppcn';

/** `--extension-id` values (each may be a comma list) as ids; throws with a message for the user. */
export function parseExtensionIds(values: readonly string[]): string[] {
  const ids = values.flatMap((value) => value.split(',')).map((id) => id.trim());
  for (const id of ids) {
    if (!EXTENSION_ID_PATTERN.test(id)) {
      throw new Error(
        `--extension-id ${JSON.stringify(id)} is not an extension id: 32 letters a–p, as chrome://extensions shows it`,
      );
    }
  }
  return [...new Set(ids)];
}

/** The extension id in an Origin header, or undefined when the Origin is not an extension's. */
export function extensionIdOf(origin: string): string | undefined {
  const match = /^chrome-extension:\/\/([a-p]{32})$/.exec(origin);
  return match?.[1];
}
