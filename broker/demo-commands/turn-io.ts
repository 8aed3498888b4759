/** What a demo command can do in a turn, and the helpers every command area shares. */
import type { PermissionOption, RequestPermissionResponse } from '@agentclientprotocol/sdk/unstable';
import type { CallToolResult, PanelServer } from '../panel-tools';

export interface TurnIO {
  readonly signal: AbortSignal;
  /** The agent whose relayed reply this turn answers, when it is one. */
  readonly from?: string;
  /** Streams markdown to the chat, in chunks. */
  say(markdown: string): Promise<void>;
  /** The browser-tools server the panel declared, if any. */
  browser(): PanelServer | undefined;
  /** Every server the panel declared (browser tools first, then connectors). */
  servers(): readonly PanelServer[];
  /** Calls a tool, showing it in the chat as a tool-call card. */
  callTool(server: PanelServer, tool: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** Asks the user through `session/request_permission`, shown as a card titled `title`. */
  ask(title: string, options: PermissionOption[]): Promise<RequestPermissionResponse>;
}

export interface DemoCommand {
  /** How it is typed, shown by `help` (e.g. `type <text> into <name>`). */
  readonly usage: string;
  readonly summary: string;
  run(argument: string, io: TurnIO): Promise<void>;
}

export async function withBrowser(io: TurnIO, work: (browser: PanelServer) => Promise<void>): Promise<void> {
  const browser = io.browser();
  if (!browser) return io.say('The panel did not give me browser tools (browser access is off for this agent).');
  await work(browser);
}

export function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marker = '`'.repeat(longest + 1);
  return `${marker}text\n${text}\n${marker}`;
}
