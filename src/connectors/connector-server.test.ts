import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { SessionGrants } from '../mcp-server/gates/call-gate';
import type { AuditEntry, ConfirmAnswer, GateEnvironment } from '../mcp-server/gates/types';
import { connectorToolServer } from './connector-server';
import { FakeTabPort } from './fake-tab-port';
import { AuthExpiredError, ConnectorError, defineConnector, type Connector } from './sdk';

const connector = defineConnector({
  id: 'demo',
  name: 'Demo App',
  version: '1.0.0',
  matches: ['http://app.test/*'],
  auth: { loginPath: '/login', signInPath: 'login' },
  tools: {
    list: {
      description: 'List things',
      input: z.object({ n: z.number().int().default(2).describe('How many') }),
      destructive: false,
      async run({ n }, ctx) {
        await ctx.navigate('things');
        const rows = await ctx.extractRows('li', { name: {} }, { limit: n });
        return { data: { rows }, text: rows.map((r) => r.name).join(', ') };
      },
    },
    write: {
      description: 'Change a thing',
      input: z.object({ text: z.string().describe('New text') }),
      destructive: true,
      async run({ text }) {
        return { data: { wrote: text } };
      },
    },
    fails: {
      description: 'Always fails the way a connector does',
      input: z.object({}),
      destructive: false,
      async run() {
        throw new ConnectorError('No such thing.');
      },
    },
    expired: {
      description: 'Finds the session gone',
      input: z.object({}),
      destructive: false,
      async run() {
        throw new AuthExpiredError('You are signed out of Demo App. Ask the user to sign in.');
      },
    },
  },
  async healthCheck() {
    return true;
  },
});

function serverWith(options: {
  actMode?: boolean;
  answer?: ConfirmAnswer;
  allowed?: boolean;
  /** A path prefix on app.test the blocklist covers. */
  blockedPath?: string;
  enabled?: boolean;
  site?: string;
}) {
  const audit: AuditEntry[] = [];
  const asked: string[] = [];
  const signedOut: string[] = [];
  const worked: string[] = [];
  const gates: GateEnvironment = {
    now: () => 0,
    killed: () => false,
    actMode: () => options.actMode ?? false,
    originRefusal: async (url) => {
      if (options.allowed === false) return `Refused: ${new URL(url!).origin} is not an allowed site.`;
      if (options.blockedPath && new URL(url!).pathname.startsWith(options.blockedPath)) {
        return `Refused: ${new URL(url!).origin} is on the high-risk blocklist (app.test${options.blockedPath}).`;
      }
      return undefined;
    },
    captureRefusal: async () => undefined,
    secretValues: () => [],
    confirm: async (request) => {
      asked.push(`${request.server}.${request.tool} ${request.origin} ${JSON.stringify(request.args)}`);
      return options.answer ?? 'deny';
    },
    audit: (entry) => audit.push(entry),
  };
  const port = new FakeTabPort({ pages: { '/': '<p>home</p>', '/things': '<ul><li>a</li><li>b</li><li>c</li></ul>' } });
  const server = connectorToolServer({
    id: connector.id,
    connector: () => connector,
    version: '9',
    agentName: () => 'Agent',
    windowId: 1,
    site: () => ('site' in options ? options.site : 'http://app.test/'),
    enabled: () => options.enabled ?? true,
    port,
    gates,
    grants: new SessionGrants(),
    onSignedOut: (c: Connector, url: string) => signedOut.push(`${c.id} ${url}`),
    onWorked: (c: Connector) => worked.push(c.id),
    log: () => undefined,
  });
  const call = (name: string, args: Record<string, unknown> = {}) =>
    server.call(name, args, { signal: new AbortController().signal, requestId: '1' });
  return { server, call, audit, asked, signedOut, worked, port };
}

const text = (result: { content: Array<{ type: string; text?: string }> }) =>
  result.content.map((block) => block.text ?? '').join('\n');

describe('a connector as its own MCP server', () => {
  it('is named by the connector id and lists its tools with their schemas and read/write hints', () => {
    const { server } = serverWith({});
    expect(server.name).toBe('demo');
    const listed = server.list();
    expect(listed.map((tool) => tool.name)).toEqual(['demo.list', 'demo.write', 'demo.fails', 'demo.expired']);
    expect(listed[0]!.inputSchema).toMatchObject({ properties: { n: { description: 'How many', default: 2 } } });
    expect(listed[1]!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('answers a read in read-only mode with structured data and untrusted text, in its own tab', async () => {
    const { call, audit, worked, port } = serverWith({});
    const result = await call('demo.list', { n: 2 });
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ rows: [{ name: 'a' }, { name: 'b' }] });
    expect(text(result)).toContain('<untrusted origin="http://app.test">');
    expect(text(result)).toContain('a, b');
    expect(port.opened).toEqual(['demo http://app.test/']);
    expect(audit.map((entry) => `${entry.server}.${entry.tool} ${entry.origin} ${entry.outcome}`)).toEqual([
      'demo.list http://app.test ok',
    ]);
    expect(worked).toEqual(['demo']);
  });

  it('refuses a destructive tool without act mode, then asks the user, and runs only when allowed', async () => {
    expect(text(await serverWith({}).call('demo.write', { text: 'x' }))).toContain('act mode is off');
    const denied = serverWith({ actMode: true, answer: 'deny' });
    expect(text(await denied.call('demo.write', { text: 'x' }))).toContain('the user denied this action');
    expect(denied.asked).toEqual(['demo.write http://app.test {"text":"x"}']);
    const allowed = serverWith({ actMode: true, answer: 'once' });
    const result = await allowed.call('demo.write', { text: 'y' });
    expect(result.structuredContent).toEqual({ wrote: 'y' });
  });

  it('answers only while its site is allowed, and says so when it has no site', async () => {
    const refused = serverWith({ allowed: false });
    expect(text(await refused.call('demo.list'))).toContain('is not an allowed site');
    expect(refused.port.opened).toEqual([]);
    expect(text(await serverWith({ site: undefined }).call('demo.list'))).toContain('no web page to work on');
  });

  it('puts the pages a tool reaches to the same decision as the site, and returns nothing from a refused one', async () => {
    const { call, port, worked } = serverWith({ blockedPath: '/things' });
    const result = await call('demo.list', { n: 2 });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('Demo App was sent to http://app.test/things, which Tabwright may not read.');
    expect(text(result)).toContain('high-risk blocklist (app.test/things)');
    expect(result.structuredContent).toBeUndefined();
    // Refused before the connector's tab was even opened.
    expect(port.visited).toEqual([]);
    expect(worked).toEqual([]);
  });

  it('checks arguments before anything runs', async () => {
    const { call, port } = serverWith({});
    expect(text(await call('demo.list', { n: 'many' }))).toContain('Invalid arguments for list');
    expect(port.opened).toEqual([]);
  });

  it('gives connector failures as error results, and a lost session as "ask the user to sign in"', async () => {
    const { call, signedOut } = serverWith({});
    const failed = await call('demo.fails');
    expect(failed).toMatchObject({ isError: true });
    expect(text(failed)).toBe('No such thing.');
    const expired = await call('demo.expired');
    expect(text(expired)).toContain('Ask the user to sign in');
    expect(signedOut).toEqual(['demo http://app.test/login']);
  });

  it('lists nothing and runs nothing while turned off', async () => {
    const { server, call } = serverWith({ enabled: false });
    expect(server.list()).toEqual([]);
    expect(text(await call('demo.list'))).toContain('turned off');
  });

  it('refuses unknown tools, naming the ones it has', async () => {
    expect(text(await serverWith({}).call('demo.nope'))).toContain('Available tools: demo.list, demo.write');
  });
});
