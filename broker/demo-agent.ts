/**
 * The demo agent: deterministic, no model. It understands a few commands, calls the panel's
 * tools through the tunnel, and streams its answers as markdown, so the whole path
 * (panel ⇄ broker ⇄ page) can be tried and tested without an LLM.
 *
 * Commands live in small area files under `demo-commands/`; each area is spread into `COMMANDS`
 * once, and `help` is generated from that table, so a command cannot exist without being listed.
 */
import { browserCommands } from './demo-commands/browser';
import { connectorCommands } from './demo-commands/connectors';
import { robustnessCommands } from './demo-commands/robustness';
import { roomCommands, splitRelays, stripLeadingMentions } from './demo-commands/room';
import type { DemoCommand, TurnIO } from './demo-commands/turn-io';

export { fence, withBrowser, type DemoCommand, type TurnIO } from './demo-commands/turn-io';

const help: DemoCommand = {
  usage: 'help',
  summary: 'this list',
  run: (_argument, io) => io.say(helpText()),
};

/** The demo agent's commands, by first word. */
export const COMMANDS: Readonly<Record<string, DemoCommand>> = {
  help,
  ...browserCommands,
  ...connectorCommands,
  ...robustnessCommands,
  ...roomCommands,
};

export function helpText(): string {
  return [
    '**Demo agent** — no model, just commands:',
    '',
    ...Object.values(COMMANDS).map((command) => `- \`${command.usage}\` — ${command.summary}`),
    '- anything else is echoed back',
  ].join('\n');
}

/** The commands as ACP slash commands: the first word of each usage, the rest as its input hint. */
export function demoSlashCommands(): Array<{ name: string; description: string; input?: { hint: string } }> {
  return Object.entries(COMMANDS).map(([name, command]) => {
    const hint = command.usage.slice(name.length).trim();
    return { name, description: command.summary, ...(hint ? { input: { hint } } : {}) };
  });
}

export async function runDemoTurn(text: string, io: TurnIO): Promise<void> {
  // Replies of other agents arrive wrapped by the panel's room; answer each as if said to us.
  const { relays, rest } = splitRelays(text);
  for (const relay of relays) await runCommand(relay.body, { ...io, from: relay.from });
  if (rest || relays.length === 0) await runCommand(rest, io);
}

async function runCommand(text: string, io: TurnIO): Promise<void> {
  // "@Alpha stream 3" in a room is "stream 3" said to Alpha.
  // "/help", picked from the panel's slash commands, is "help".
  // Anything else is echoed as typed, its "/" included.
  const said = stripLeadingMentions(text);
  const input = said.replace(/^\//, '');
  const word = (input.split(/\s+/)[0] ?? '').toLowerCase();
  const command = Object.hasOwn(COMMANDS, word) ? COMMANDS[word] : undefined;
  if (command) return command.run(input.slice(word.length).trim(), io);
  return io.say(`You said: ${said}`);
}
