/**
 * What the panel and the broker agree on over the ACP socket: the `_meta` keys of Tabwright's own
 * extensions, and the limits of the OpenAB contract that both sides enforce.
 */

/** In `initialize`'s result: the broker drops a prompt whose client message id it has already seen. */
export const PROMPT_DEDUP_META = 'tabwright/dropsRepeatedPrompts';
/** On `session/prompt`: the panel's id for the message, so a resend after a reconnect is not run twice. */
export const MESSAGE_ID_META = 'tabwright/messageId';
/**
 * In the `data` of a `session/prompt` error: the turn that message started was cut short (the broker
 * stopped while the agent answered) and is not run again, so its reply is incomplete.
 */
export const TURN_CUT_META = 'tabwright/turnCut';

/** OpenAB accepts at most this many `acp` MCP servers declared in one session. */
export const MAX_DECLARED_SERVERS = 8;
/** One method frame (a request or notification) on the socket: 1 MiB. */
export const MAX_METHOD_FRAME_BYTES = 1024 * 1024;
/** Any frame the broker reads, results included: 8 MiB. */
export const MAX_INBOUND_FRAME_BYTES = 8 * 1024 * 1024;
/** A tunnelled MCP call is answered within this, or given up on. */
export const TUNNEL_TIMEOUT_MS = 180_000;

/** JSON-RPC params and MCP arguments are objects: not arrays, not null. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export const PARAMS_NOT_OBJECT = 'params must be an object';
