/**
 * The demo agent: deterministic, no model. It understands a few commands, calls the panel's
 * browser tools through the tunnel, and streams its answers as markdown, so the whole path
 * (panel ⇄ broker ⇄ page) can be tried and tested without an LLM.
 */
import { textOf, type CallToolResult, type PanelServer } from './panel-tools';

export interface TurnIO {
  readonly signal: AbortSignal;
  /** Streams markdown to the chat, in chunks. */
  say(markdown: string): Promise<void>;
  /** The browser-tools server the panel declared, if any. */
  browser(): PanelServer | undefined;
  /** Calls a tool, showing it in the chat as a tool-call card. */
  callTool(server: PanelServer, tool: string, args: Record<string, unknown>): Promise<CallToolResult>;
}

export const HELP = [
  '**Demo agent** — no model, just commands:',
  '',
  '- `help` — this list',
  '- `snapshot` — read the current tab',
  '- `tabs` — list the open tabs',
  '- `click <name>` — click the element with that accessible name',
  '- anything else is echoed back',
].join('\n');

export type DemoCommand = (argument: string, io: TurnIO) => Promise<void>;

/** The demo agent's commands, by first word. Each is listed once here; `help` describes them. */
export const COMMANDS: Record<string, DemoCommand> = {
  help: (_argument, io) => io.say(HELP),
  snapshot: (_argument, io) =>
    withBrowser(io, async (browser) => {
      const result = await io.callTool(browser, `${browser.name}.snapshot`, {});
      await io.say(fence(textOf(result)));
    }),
  tabs: (_argument, io) =>
    withBrowser(io, async (browser) => {
      const result = await io.callTool(browser, `${browser.name}.tabs`, {});
      await io.say(fence(textOf(result)));
    }),
  click: (argument, io) => withBrowser(io, (browser) => clickByName(io, browser, argument)),
};

export async function runDemoTurn(text: string, io: TurnIO): Promise<void> {
  const input = text.trim();
  const [word = '', ...rest] = input.split(/\s+/);
  const command = COMMANDS[word.toLowerCase()];
  if (command) return command(rest.join(' '), io);
  return io.say(`You said: ${input}`);
}

export async function withBrowser(io: TurnIO, work: (browser: PanelServer) => Promise<void>): Promise<void> {
  const browser = io.browser();
  if (!browser) return io.say('The panel did not give me browser tools (browser access is off for this agent).');
  await work(browser);
}

/** The ref of the first snapshot line whose accessible name matches, case-insensitively. */
export function findRefByName(snapshot: string, name: string): string | undefined {
  const wanted = name.trim().toLowerCase();
  for (const line of snapshot.split('\n')) {
    const match = /- [\w-]+ "([^"]*)".*?\[ref=([\w]+)\]/.exec(line);
    if (match && match[1]!.toLowerCase() === wanted) return match[2];
  }
  for (const line of snapshot.split('\n')) {
    const match = /- [\w-]+ "([^"]*)".*?\[ref=([\w]+)\]/.exec(line);
    if (match && match[1]!.toLowerCase().includes(wanted)) return match[2];
  }
  return undefined;
}

async function clickByName(io: TurnIO, browser: PanelServer, name: string): Promise<void> {
  if (!name) return io.say('Click what? Say `click <name>`.');
  const snapshot = textOf(await io.callTool(browser, `${browser.name}.snapshot`, {}));
  const ref = findRefByName(snapshot, name);
  if (!ref) return io.say(`I found nothing named “${name}” on the page.`);
  const result = await io.callTool(browser, `${browser.name}.click`, { ref });
  await io.say(result.isError ? `The click was refused:\n\n${textOf(result)}` : fence(textOf(result)));
}

export function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const marker = '`'.repeat(longest + 1);
  return `${marker}text\n${text}\n${marker}`;
}
