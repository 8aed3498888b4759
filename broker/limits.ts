/** The OpenAB contract's limits, enforced by the local broker as well. */
export const MAX_INBOUND_FRAME_BYTES = 8 * 1024 * 1024;
export const MAX_METHOD_FRAME_BYTES = 1024 * 1024;
export const TUNNEL_TIMEOUT_MS = 180_000;
export const MAX_ACP_SERVERS_PER_SESSION = 8;
