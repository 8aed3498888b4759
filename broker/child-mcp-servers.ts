/**
 * Most agents do not speak MCP-over-ACP, so the servers a panel declares as `acp` are offered to
 * a relayed agent as one ordinary MCP server on the broker's loopback: Streamable HTTP with the
 * bearer header when the agent supports HTTP, else a stdio bridge to the same endpoint (stdio is
 * the one transport every ACP agent must support). The bearer is the session's credential, which
 * opens that session's endpoint alone.
 */
import type { McpCapabilities, McpServer } from '@agentclientprotocol/sdk/unstable';

export const AGENT_MCP_SERVER_NAME = 'tabwright';
export const BRIDGE_TOKEN_ENV = 'TABWRIGHT_MCP_TOKEN';

export interface BrokerMcpEndpoint {
  /** The session's MCP URL, e.g. `http://127.0.0.1:8765/mcp/<session>`. */
  url: string;
  /** The session's own credential (never the broker's token); empty sends none. */
  token: string;
  /** How to start the stdio bridge for agents without HTTP support (the URL is appended). */
  bridge: { command: string; args: string[] };
}

function isAcp(server: unknown): boolean {
  return typeof server === 'object' && server !== null && (server as { type?: unknown }).type === 'acp';
}

/** The panel's `mcpServers` as the relayed agent gets them: `acp` entries replaced by the broker's endpoint. */
export function mcpServersForAgent(
  declared: readonly unknown[],
  endpoint: BrokerMcpEndpoint,
  capabilities: McpCapabilities | undefined,
): McpServer[] {
  const kept = declared.filter((server) => !isAcp(server)) as McpServer[];
  const taken = new Set(kept.map((server) => server.name));
  let name = AGENT_MCP_SERVER_NAME;
  for (let n = 2; taken.has(name); n++) name = `${AGENT_MCP_SERVER_NAME}-${n}`;
  if (capabilities?.http) {
    const headers = endpoint.token ? [{ name: 'Authorization', value: `Bearer ${endpoint.token}` }] : [];
    return [...kept, { type: 'http', name, url: endpoint.url, headers }];
  }
  return [
    ...kept,
    {
      name,
      command: endpoint.bridge.command,
      args: [...endpoint.bridge.args, endpoint.url],
      // The token goes in the environment, never on a command line other users can read.
      env: endpoint.token ? [{ name: BRIDGE_TOKEN_ENV, value: endpoint.token }] : [],
    },
  ];
}
