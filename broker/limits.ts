/** The local broker's own limits; the OpenAB contract's are in src/contract/acp.ts. */
import { MAX_METHOD_FRAME_BYTES } from '../src/contract/acp';

/** An HTTP MCP request carries one method frame, so it gets the same cap as one on the socket. */
export const MAX_HTTP_BODY_BYTES = MAX_METHOD_FRAME_BYTES;
/** Open MCP client sessions per endpoint; past this the least recently used one is closed. */
export const MAX_MCP_HTTP_SESSIONS = 64;
/**
 * How long after an agent's MCP client connects its first turn may wait for the client's tool
 * listing: as long as Qwen Code gives a remote server to list its tools before it stops waiting.
 */
export const FIRST_LISTING_WAIT_MS = 5_000;
/** Time an agent is given to take in a tool listing it was waited for, before its first turn goes. */
export const LISTING_TAKE_IN_MS = 250;
