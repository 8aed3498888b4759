/**
 * A stdio MCP server that forwards every message to the broker's Streamable-HTTP `/mcp` endpoint,
 * for agents that only start MCP servers as commands. Usage: `mcp-stdio-bridge <url>`, with the
 * session's credential in TABWRIGHT_MCP_TOKEN (environment, so it never shows in a process list).
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BRIDGE_TOKEN_ENV } from './child-mcp-servers';

/** The command that starts this bridge from any working directory (the endpoint URL goes last). */
export function bridgeCommand(): { command: string; args: string[] } {
  const loader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  return { command: process.execPath, args: ['--import', loader, fileURLToPath(import.meta.url)] };
}

function isInitializeResult(message: JSONRPCMessage): string | undefined {
  const result = (message as { result?: { protocolVersion?: unknown; serverInfo?: unknown } }).result;
  return typeof result?.protocolVersion === 'string' && result.serverInfo ? result.protocolVersion : undefined;
}

export async function runBridge(url: string, token: string | undefined): Promise<void> {
  const upstream = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: token ? { headers: { Authorization: `Bearer ${token}` } } : {},
  });
  const downstream = new StdioServerTransport();
  const fail = (message: JSONRPCMessage, error: unknown) => {
    if (!('id' in message) || !('method' in message)) return;
    void downstream.send({
      jsonrpc: '2.0',
      id: message.id,
      error: { code: -32603, message: `The Tabwright broker did not answer: ${(error as Error).message}` },
    });
  };
  downstream.onmessage = (message) => void upstream.send(message).catch((error: unknown) => fail(message, error));
  upstream.onmessage = (message) => {
    const revision = isInitializeResult(message);
    // Later requests must carry the negotiated revision in their header.
    if (revision) upstream.setProtocolVersion(revision);
    void downstream.send(message);
  };
  upstream.onerror = (error) => process.stderr.write(`tabwright bridge: ${error.message}\n`);
  const stop = () => {
    void upstream.terminateSession().catch(() => undefined);
    void upstream.close().finally(() => process.exit(0));
  };
  downstream.onclose = stop;
  process.stdin.once('end', stop);
  await upstream.start();
  await downstream.start();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const url = process.argv[2];
  if (!url) {
    process.stderr.write('usage: mcp-stdio-bridge <broker MCP url>\n');
    process.exit(2);
  }
  runBridge(url, process.env[BRIDGE_TOKEN_ENV]).catch((error: unknown) => {
    process.stderr.write(`tabwright bridge: ${(error as Error).message}\n`);
    process.exit(1);
  });
}
