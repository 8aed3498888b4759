/** Demo commands that read and operate the page through the panel's browser tools. */
import { fence, withBrowser, type DemoCommand, type TurnIO } from './turn-io';
import { textOf, type PanelServer } from '../panel-tools';

const SNAPSHOT_LINE = /- [\w-]+ "([^"]*)".*?\[((?:f\d+)?e\d+)\]/;

/** The ref of the first snapshot line whose accessible name matches, exactly first, then in part. */
export function findRefByName(snapshot: string, name: string): string | undefined {
  const wanted = name.trim().toLowerCase();
  const lines = snapshot.split('\n').flatMap((line) => {
    const match = SNAPSHOT_LINE.exec(line);
    return match ? [{ name: match[1]!.toLowerCase(), ref: match[2]! }] : [];
  });
  return (lines.find((line) => line.name === wanted) ?? lines.find((line) => line.name.includes(wanted)))?.ref;
}

/** Snapshot lines that mention `text`, case-insensitively (only element lines, never the wrapper). */
export function findLines(snapshot: string, text: string): string[] {
  const wanted = text.trim().toLowerCase();
  return snapshot
    .split('\n')
    .filter((line) => /^\s*- /.test(line) && line.toLowerCase().includes(wanted))
    .map((line) => line.trim());
}

/** `type <text> into <name>`: split at the last " into ", so the text itself may say "into". */
export function parseTypeCommand(argument: string): { text: string; target: string } | undefined {
  const match = /^([\s\S]*\S)\s+into\s+(\S[\s\S]*)$/i.exec(argument.trim());
  if (!match) return undefined;
  const unquote = (value: string) => value.trim().replace(/^(["'“])([\s\S]*)(["'”])$/, '$2');
  return { text: unquote(match[1]!), target: unquote(match[2]!) };
}

async function hasTool(io: TurnIO, server: PanelServer, tool: string): Promise<boolean> {
  const tools = await server.tools(io.signal).catch(() => []);
  return tools.some((listed) => listed.name === tool);
}

async function snapshotText(io: TurnIO, browser: PanelServer): Promise<string | undefined> {
  const result = await io.callTool(browser, `${browser.name}.snapshot`, {});
  if (!result.isError) return textOf(result);
  await io.say(`I could not read the page:\n\n${textOf(result)}`);
  return undefined;
}

async function actOnNamed(
  io: TurnIO,
  browser: PanelServer,
  name: string,
  tool: string,
  args: Record<string, unknown>,
): Promise<void> {
  if (!(await hasTool(io, browser, `${browser.name}.${tool}`))) {
    return io.say(`The panel offers no \`${tool}\` tool, so I cannot do that here.`);
  }
  const snapshot = await snapshotText(io, browser);
  if (snapshot === undefined) return;
  const ref = findRefByName(snapshot, name);
  if (!ref) return io.say(`I found nothing named “${name}” on the page.`);
  const result = await io.callTool(browser, `${browser.name}.${tool}`, { ref, ...args });
  await io.say(result.isError ? `The ${tool} was refused:\n\n${textOf(result)}` : fence(textOf(result)));
}

export const browserCommands: Record<string, DemoCommand> = {
  snapshot: {
    usage: 'snapshot',
    summary: 'read the current tab',
    run: (_argument, io) =>
      withBrowser(io, async (browser) => {
        const result = await io.callTool(browser, `${browser.name}.snapshot`, {});
        await io.say(fence(textOf(result)));
      }),
  },
  find: {
    usage: 'find <text>',
    summary: 'list the elements on the page that mention the text',
    run: (argument, io) =>
      withBrowser(io, async (browser) => {
        if (!argument) return io.say('Find what? Say `find <text>`.');
        // The panel's own `find` gives each match with its place; without it, the snapshot is searched here.
        if (await hasTool(io, browser, `${browser.name}.find`)) {
          const result = await io.callTool(browser, `${browser.name}.find`, { text: argument });
          return io.say(result.isError ? `The search failed:\n\n${textOf(result)}` : fence(textOf(result)));
        }
        const snapshot = await snapshotText(io, browser);
        if (snapshot === undefined) return;
        const lines = findLines(snapshot, argument);
        await io.say(
          lines.length
            ? `${lines.length} element(s) mention “${argument}”:\n\n${fence(lines.join('\n'))}`
            : `Nothing on the page mentions “${argument}”.`,
        );
      }),
  },
  click: {
    usage: 'click <name>',
    summary: 'click the element with that accessible name',
    run: (argument, io) =>
      withBrowser(io, async (browser) => {
        if (!argument) return io.say('Click what? Say `click <name>`.');
        await actOnNamed(io, browser, argument, 'click', {});
      }),
  },
  type: {
    usage: 'type <text> into <name>',
    summary: 'type text into the field with that accessible name',
    run: (argument, io) =>
      withBrowser(io, async (browser) => {
        const parsed = parseTypeCommand(argument);
        if (!parsed) return io.say('Say `type <text> into <name>`, e.g. `type Ada into Your name`.');
        await actOnNamed(io, browser, parsed.target, 'type', { text: parsed.text });
      }),
  },
  tabs: {
    usage: 'tabs',
    summary: 'list the open tabs',
    run: (_argument, io) =>
      withBrowser(io, async (browser) => {
        const result = await io.callTool(browser, `${browser.name}.tabs`, {});
        await io.say(fence(textOf(result)));
      }),
  },
  downloads: {
    usage: 'downloads',
    summary: 'list recent downloads from allowed sites (when "Report downloads" is on)',
    run: (_argument, io) =>
      withBrowser(io, async (browser) => {
        const result = await io.callTool(browser, `${browser.name}.downloads`, {});
        await io.say(fence(textOf(result)));
      }),
  },
};
