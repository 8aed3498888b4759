/**
 * The browser tools as the broker lists them while no panel is attached. tool-manifest.json is
 * written from the panel's tool registry (`npm run manifest`, also run by every build) and a unit
 * test keeps it equal to the registry, so the broker learns the schemas without loading panel code.
 */
import manifest from './tool-manifest.json';
import type { McpTool } from './mcp';

export interface ToolManifest {
  /** Each tool's listing under its bare name (`snapshot`), before a server name prefixes it. */
  tools: McpTool[];
}

export const BROWSER_TOOL_MANIFEST: ToolManifest = manifest as ToolManifest;

/** The manifest's tools named as a panel lists them under `serverName` (`tabwright.snapshot`). */
export function browserToolsUnder(serverName: string): McpTool[] {
  return BROWSER_TOOL_MANIFEST.tools.map((tool) => ({ ...tool, name: `${serverName}.${tool.name}` }));
}
