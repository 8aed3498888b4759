/** The OpenAB contract's limits, enforced by the local broker as well. */
export const MAX_INBOUND_FRAME_BYTES = 8 * 1024 * 1024;
export const MAX_METHOD_FRAME_BYTES = 1024 * 1024;
export const TUNNEL_TIMEOUT_MS = 180_000;
export const MAX_ACP_SERVERS_PER_SESSION = 8;
/** An HTTP MCP request carries one method frame, so it gets the same cap as one on the socket. */
export const MAX_HTTP_BODY_BYTES = MAX_METHOD_FRAME_BYTES;
/** Open MCP client sessions per endpoint; past this the least recently used one is closed. */
export const MAX_MCP_HTTP_SESSIONS = 64;
