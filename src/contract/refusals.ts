/**
 * Why the local broker turned a panel away. A browser never shows a page the HTTP answer to a
 * refused WebSocket upgrade (every refusal is the same error event), so for a request from an
 * extension the broker accepts the upgrade and closes it at once with one of these codes (the
 * 4000–4999 range is for applications, RFC 6455 §7.4.2) and a short reason. Nothing is read from
 * such a socket. Programs that send no Origin can read HTTP, and keep getting HTTP refusals.
 */

export const REFUSAL_CLOSE = {
  /** The bearer token is missing or wrong. */
  wrongToken: 4401,
  /** The extension's id is not admitted: the reason names the `--extension-id` to start with. */
  notAdmitted: 4403,
  /** The URL's path is not `/acp`. */
  wrongPath: 4404,
} as const;

export type RefusalCause = keyof typeof REFUSAL_CLOSE;

/** A close reason travels in a control frame: at most 123 bytes. */
export const MAX_CLOSE_REASON_BYTES = 123;

/** The cause a close code stands for, or undefined when it is not one of the broker's refusals. */
export function refusalOf(code: number | undefined): RefusalCause | undefined {
  for (const [cause, value] of Object.entries(REFUSAL_CLOSE)) {
    if (value === code) return cause as RefusalCause;
  }
  return undefined;
}

/** The reason the broker gives for an extension it does not admit; the panel reads the id back. */
export function notAdmittedReason(extensionId: string): string {
  return `extension not admitted: start the broker with --extension-id ${extensionId}`;
}

/** The id in a not-admitted reason, when it is a well-formed extension id. */
export function extensionIdInReason(reason: string): string | undefined {
  return /--extension-id ([a-p]{32})\b/.exec(reason)?.[1];
}
