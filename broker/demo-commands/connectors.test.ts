import { describe, expect, it } from 'vitest';
import type { PanelServer } from '../panel-tools';
import { connectorCommands } from './connectors';
import type { TurnIO } from './turn-io';

function io(servers: string[]) {
  const said: string[] = [];
  const calls: Array<{ server: string; tool: string; args: Record<string, unknown> }> = [];
  const turn: TurnIO = {
    signal: new AbortController().signal,
    say: async (markdown) => void said.push(markdown),
    browser: () => undefined,
    servers: () => servers.map((name) => ({ name }) as PanelServer),
    callTool: async (server, tool, args) => {
      calls.push({ server: server.name, tool, args });
      return tool.endsWith('add_note')
        ? { isError: true, content: [{ type: 'text', text: 'Refused: act mode is off.' }] }
        : { content: [{ type: 'text', text: 'ok' }], structuredContent: { rows: [1] } };
    },
    ask: async () => ({ outcome: { outcome: 'cancelled' } }),
  };
  return { turn, said, calls };
}

describe('demo connector commands', () => {
  it('call the connector tool on the connector’s own server with parsed arguments', async () => {
    const { turn, calls } = io(['tabwright', 'fossil', 'redmine', 'dokuwiki', 'page.127-0-0-1-8080']);
    await connectorCommands.call!.run('page.127-0-0-1-8080.delete_note {"id":"n1"}', turn);
    await connectorCommands.tickets!.run('closed', turn);
    await connectorCommands.ticket!.run('abc123', turn);
    await connectorCommands.issues!.run('', turn);
    await connectorCommands.note!.run('#7 Looks good: ship it', turn);
    await connectorCommands.search!.run('release notes', turn);
    expect(calls).toEqual([
      { server: 'page.127-0-0-1-8080', tool: 'page.127-0-0-1-8080.delete_note', args: { id: 'n1' } },
      { server: 'fossil', tool: 'fossil.list_my_tickets', args: { status: 'closed' } },
      { server: 'fossil', tool: 'fossil.get_ticket', args: { id: 'abc123' } },
      { server: 'redmine', tool: 'redmine.list_my_issues', args: { status: 'open' } },
      { server: 'redmine', tool: 'redmine.add_note', args: { id: 7, note: 'Looks good: ship it' } },
      { server: 'dokuwiki', tool: 'dokuwiki.search', args: { query: 'release notes' } },
    ]);
  });

  it('shows refusals and structured results, and says when a connector was not offered', async () => {
    const { turn, said } = io(['redmine', 'myredmine']);
    await connectorCommands.note!.run('3 hi', turn);
    expect(said.at(-1)).toContain('redmine.add_note failed');
    expect(said.at(-1)).toContain('act mode is off');
    await connectorCommands.call!.run('myredmine.list_my_issues {"status":"*"}', turn);
    expect(said.at(-1)).toContain('"rows": [');
    await connectorCommands.tickets!.run('', turn);
    expect(said.at(-1)).toContain('did not offer the `fossil` connector (offered: redmine, myredmine)');
    await connectorCommands.issue!.run('seven', turn);
    expect(said.at(-1)).toBe('Which issue? Say `issue <number>`.');
    await connectorCommands.call!.run('page.notes-example.list_notes {}', turn);
    expect(said.at(-1)).toContain('did not offer the `page.notes-example` connector');
    await connectorCommands.call!.run('redmine.get_issue {oops', turn);
    expect(said.at(-1)).toMatch(/^The arguments are not JSON/);
  });
});
