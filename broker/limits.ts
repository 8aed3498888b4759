/** The local broker's own limits; the OpenAB contract's are in src/contract/acp.ts. */
import { MAX_METHOD_FRAME_BYTES } from '../src/contract/acp';

/** An HTTP MCP request carries one method frame, so it gets the same cap as one on the socket. */
export const MAX_HTTP_BODY_BYTES = MAX_METHOD_FRAME_BYTES;
/** Open MCP client sessions per endpoint; past this the least recently used one is closed. */
export const MAX_MCP_HTTP_SESSIONS = 64;
