/**
 * Demo commands for the panel's connectors: each calls one connector tool (`fossil.list_my_tickets`
 * …) on the connector's own MCP server, and `call` reaches any connector tool by name with JSON
 * arguments, showing the structured result as well as the text.
 */
import { fence, type DemoCommand, type TurnIO } from './turn-io';
import { textOf, type PanelServer } from '../panel-tools';

function serverNamed(io: TurnIO, name: string): PanelServer | undefined {
  return io.servers().find((server) => server.name === name);
}

async function callConnector(io: TurnIO, tool: string, args: Record<string, unknown>, showData = false): Promise<void> {
  // A page's server is itself dotted (`page.example-com.list_notes`): the tool is the last part.
  const serverName = tool.slice(0, tool.lastIndexOf('.'));
  const server = serverNamed(io, serverName);
  if (!server) {
    const offered = io
      .servers()
      .map((s) => s.name)
      .join(', ');
    return io.say(
      `The panel did not offer the \`${serverName}\` connector (offered: ${offered || 'nothing'}). Enable it in Tabwright's Settings → Connectors; it is offered to me at once.`,
    );
  }
  const result = await io.callTool(server, tool, args);
  if (result.isError) return io.say(`${tool} failed:\n\n${fence(textOf(result))}`);
  const parts = [fence(textOf(result))];
  if (showData && result.structuredContent) parts.push(fence(JSON.stringify(result.structuredContent, null, 2)));
  await io.say(parts.join('\n\n'));
}

const statusWord = (argument: string) => {
  const word = argument.trim().toLowerCase();
  return word === 'closed' || word === 'all' ? word : 'open';
};

function oneArgument(
  usage: string,
  summary: string,
  tool: string,
  toArgs: (argument: string) => Record<string, unknown> | string,
): DemoCommand {
  return {
    usage,
    summary,
    run: async (argument, io) => {
      const args = toArgs(argument);
      if (typeof args === 'string') return io.say(args);
      await callConnector(io, tool, args);
    },
  };
}

export const connectorCommands: Record<string, DemoCommand> = {
  tickets: oneArgument('tickets [open|closed|all]', 'my Fossil tickets', 'fossil.list_my_tickets', (a) => ({
    status: statusWord(a),
  })),
  ticket: oneArgument('ticket <hash>', 'one Fossil ticket', 'fossil.get_ticket', (a) =>
    a ? { id: a } : 'Which ticket? Say `ticket <hash>`.',
  ),
  wiki: oneArgument('wiki <page>', 'a Fossil wiki page', 'fossil.read_wiki_page', (a) =>
    a ? { name: a } : 'Which page? Say `wiki <page>`.',
  ),
  issues: oneArgument('issues [open|closed|all]', 'my Redmine issues', 'redmine.list_my_issues', (a) => ({
    status: statusWord(a),
  })),
  issue: oneArgument('issue <number>', 'one Redmine issue with its notes', 'redmine.get_issue', (a) =>
    /^\d+$/.test(a) ? { id: Number(a) } : 'Which issue? Say `issue <number>`.',
  ),
  note: oneArgument('note <number> <text>', 'add a note to a Redmine issue', 'redmine.add_note', (a) => {
    const match = /^#?(\d+)\s+([\s\S]+)$/.exec(a.trim());
    return match ? { id: Number(match[1]), note: match[2]! } : 'Say `note <number> <text>`.';
  }),
  page: oneArgument('page <id>', 'a DokuWiki page', 'dokuwiki.read_page', (a) =>
    a ? { id: a } : 'Which page? Say `page <id>`.',
  ),
  search: oneArgument('search <words>', 'search the DokuWiki', 'dokuwiki.search', (a) =>
    a ? { query: a } : 'Search for what? Say `search <words>`.',
  ),
  call: {
    usage: 'call <connector.tool> [json arguments]',
    summary: 'any connector or page tool (`page.<site>.<tool>`), showing its structured result',
    run: async (argument, io) => {
      const match = /^([a-z][\w-]*(?:\.[\w-]+)*\.[A-Za-z]\w*)\s*([\s\S]*)$/.exec(argument.trim());
      if (!match) return io.say('Say `call <connector.tool> {"arg": "value"}`.');
      let args: Record<string, unknown> = {};
      if (match[2]) {
        try {
          args = JSON.parse(match[2]) as Record<string, unknown>;
        } catch (error) {
          return io.say(`The arguments are not JSON: ${(error as Error).message}`);
        }
      }
      await callConnector(io, match[1]!, args, true);
    },
  },
};
