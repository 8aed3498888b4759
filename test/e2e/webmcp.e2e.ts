/**
 * Page-declared tools (WebMCP) in Chromium with its `WebMCP` feature on: a notes page registers a
 * read tool, a read tool it later withdraws and a consequential delete, and a frame in it one more
 * of its own. An MCP client on the broker's `/mcp` (the agent's side) sees the page's `page.<site>`
 * tools, and not the frame's, only once the user turns them on for an allowed site; the read
 * returns the page's words wrapped as untrusted; the delete waits for the confirmation card on
 * every call and runs only after Allow; a site that is not allowed never offers its tools.
 *
 * Then the page's claims: a tool marked read-only and destructive, one whose hint getters answer
 * differently on each read, one registered out of the registration hook's sight and one in a
 * document the hook never reached are all confirmed on every call; a schema full of forged text
 * is listed cleaned; and a pattern that would backtrack for a minute leaves the panel free.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBroker, type RunningBroker } from '../../broker/server';
import { startFixtureServer, type FixtureServer } from './fixture-server';
import { addAgentThroughForm, allowSite, launchWithExtension, openPanelTab, waitFor, type Launched } from './harness';

const TOKEN = 'webmcp-token';

function textOf(result: unknown): string {
  return ((result as { content?: Array<{ text?: string }> }).content ?? []).map((block) => block.text ?? '').join('\n');
}

describe('page-declared tools through the gates', () => {
  let launched: Launched;
  let broker: RunningBroker;
  let fixtures: FixtureServer;
  let client: Client;
  let panel: Page;

  const toolNames = async () => (await client.listTools()).tools.map((tool) => tool.name);
  const pageToolNames = async () => (await toolNames()).filter((name) => name.startsWith('page.'));
  const toggleSettings = () => panel.getByRole('button', { name: 'Settings' }).click();
  const listedTool = async (name: string) => (await client.listTools()).tools.find((tool) => tool.name === name)!;
  const cardFor = (tool: string) => panel.getByRole('alertdialog').filter({ hasText: tool });
  /** Opens an allowed-site fixture in front and waits until the agent is offered `tools` from it. */
  const openFixture = async (path: string, server: string, tools: string[]) => {
    const page = await launched.context.newPage();
    await page.goto(path);
    await page.locator('body[data-ready="tools"]').waitFor();
    await page.bringToFront();
    await waitFor(async () => {
      const names = await pageToolNames();
      return tools.every((tool) => names.includes(`${server}.${tool}`));
    }, 30_000);
    return page;
  };
  /** Calls `tool`, answers its card with `answer`, and says whether the card offered "Allow for this site". */
  const callThroughCard = async (tool: string, answer: 'Allow once' | 'Deny') => {
    const call = client.callTool({ name: tool, arguments: {} });
    const card = cardFor(tool);
    await card.waitFor();
    await expect.poll(() => card.innerText()).toContain('Tabwright asks every time');
    const offeredSite = await card.getByRole('button', { name: 'Allow for this site' }).count();
    await card.getByRole('button', { name: answer }).click();
    return { offeredSite, result: await call };
  };

  beforeAll(async () => {
    broker = await startBroker({ token: TOKEN, chunkDelayMs: 0 });
    fixtures = await startFixtureServer();
    launched = await launchWithExtension(undefined, { features: ['WebMCP'] });
    client = new Client({ name: 'e2e-webmcp-client', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(broker.mcpUrl), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    );
    panel = await openPanelTab(launched);
    await addAgentThroughForm(panel, { name: 'Broker', url: broker.url, token: TOKEN });
    await panel.getByRole('button', { name: /Broker: connected/ }).waitFor({ timeout: 30_000 });
  });
  afterAll(async () => {
    await client?.close().catch(() => undefined);
    await launched?.close();
    await broker?.close();
    await fixtures?.close();
  });

  it('offers an allowed site’s declared tools only once the user turns them on, and gates each call', async () => {
    const server = `page.127-0-0-1-${fixtures.port}`;
    const otherServer = `page.localhost-${fixtures.port}`;
    await toggleSettings();
    await allowSite(panel, fixtures.allowed);
    await toggleSettings();

    const notes = await launched.context.newPage();
    await notes.goto(fixtures.url('/webmcp/notes.html'));
    await notes.locator('body[data-ready="tools"]').waitFor();
    await notes.frameLocator('iframe').locator('body[data-ready="tools"]').waitFor();
    const stranger = await launched.context.newPage();
    await stranger.goto(`${fixtures.other}/webmcp/notes.html`);
    await stranger.locator('body[data-ready="tools"]').waitFor();
    await notes.bringToFront();

    // The browser tools are there, the page's are not: nobody turned them on.
    await waitFor(async () => (await toolNames()).includes('tabwright.snapshot'), 30_000);
    expect(await pageToolNames()).toEqual([]);

    await toggleSettings();
    const offer = panel.getByRole('checkbox', { name: `Offer tools declared by ${fixtures.allowed}` });
    expect(await offer.isChecked()).toBe(false);
    expect(await panel.getByRole('checkbox', { name: `Offer tools declared by ${fixtures.other}` }).count()).toBe(0);
    await offer.check();
    await toggleSettings();

    await waitFor(async () => (await pageToolNames()).length === 3, 30_000);
    const listed = (await client.listTools()).tools.filter((tool) => tool.name.startsWith('page.'));
    expect(listed.map((tool) => tool.name).sort()).toEqual(
      [`${server}.delete_note`, `${server}.list_notes`, `${server}.search_notes`].sort(),
    );
    expect(listed.some((tool) => tool.name.startsWith(otherServer))).toBe(false);
    const list = listed.find((tool) => tool.name === `${server}.list_notes`)!;
    expect(list.description).toContain(`Page-provided tool declared by ${fixtures.allowed}`);
    // The page's bidi override is gone and its fake closing tag defused.
    expect(list.description).not.toContain('\u202e');
    expect(list.description).not.toContain('</untrusted>');
    expect(list.annotations?.readOnlyHint).toBe(true);
    const remove = listed.find((tool) => tool.name === `${server}.delete_note`)!;
    expect(remove.annotations?.readOnlyHint).toBe(false);
    expect(remove.description).toContain('the user confirms every call');
    expect(remove.inputSchema.required).toEqual(['id']);

    // A read: the page's answer, wrapped as its words.
    const read = await client.callTool({ name: `${server}.list_notes`, arguments: {} });
    expect(read.isError).toBeFalsy();
    const readText = textOf(read);
    expect(readText.startsWith(`<untrusted origin="${fixtures.allowed}">`)).toBe(true);
    expect(readText).toContain('Buy milk');
    expect(readText.match(/<\/untrusted>/g)).toHaveLength(1);

    // Arguments that do not fit the declared schema never reach the page.
    const invalid = await client.callTool({ name: `${server}.search_notes`, arguments: { word: '' } });
    expect(invalid.isError).toBe(true);
    expect(textOf(invalid)).toContain('Invalid arguments for search_notes');
    const found = await client.callTool({ name: `${server}.search_notes`, arguments: { word: 'plumber' } });
    expect(textOf(found)).toContain('Call the plumber');
    expect(textOf(found)).not.toContain('Buy milk');

    // Not read-only: refused while act mode is off.
    const readOnly = await client.callTool({ name: `${server}.delete_note`, arguments: { id: 'n1' } });
    expect(textOf(readOnly)).toContain('act mode is off');
    expect(await notes.locator('#deleted').textContent()).toBe('0');

    await toggleSettings();
    await panel.getByRole('switch', { name: 'Act mode' }).check();
    await toggleSettings();
    await notes.bringToFront();

    // Consequential: the card waits, offers no "for this site", and Deny refuses.
    const denied = client.callTool({ name: `${server}.delete_note`, arguments: { id: 'n1' } });
    const card = panel.getByRole('alertdialog').filter({ hasText: `${server}.delete_note` });
    await card.waitFor();
    expect(await card.getByRole('button', { name: 'Allow for this site' }).count()).toBe(0);
    await expect.poll(() => card.innerText()).toContain('Tabwright asks every time');
    await card.getByRole('button', { name: 'Deny' }).click();
    expect(textOf(await denied)).toContain('the user denied this action');
    expect(await notes.locator('#notes li').count()).toBe(2);

    const allowed = client.callTool({ name: `${server}.delete_note`, arguments: { id: 'n1' } });
    await card.waitFor();
    await card.getByRole('button', { name: 'Allow once' }).click();
    const done = await allowed;
    expect(done.isError).toBeFalsy();
    expect(textOf(done)).toContain('Deleted n1.');
    expect(await notes.locator('#deleted').textContent()).toBe('1');
    expect(await notes.locator('#notes li').allInnerTexts()).toEqual(['Call the plumber']);

    // Asked again on the next call: an allowed call leaves no grant behind.
    const again = client.callTool({ name: `${server}.delete_note`, arguments: { id: 'n2' } });
    await card.waitFor();
    await card.getByRole('button', { name: 'Deny' }).click();
    expect(textOf(await again)).toContain('the user denied this action');
    expect(await notes.locator('#notes li').count()).toBe(1);

    // The page withdraws a tool: the list follows.
    await notes.getByRole('button', { name: 'Withdraw the search tool' }).click();
    await waitFor(async () => !(await pageToolNames()).includes(`${server}.search_notes`), 30_000);
    expect(await pageToolNames()).toContain(`${server}.list_notes`);

    // The tab moves to a site that is not allowed: its tools are not this server's, and nothing is listed.
    await notes.goto(`${fixtures.other}/webmcp/notes.html`);
    await notes.locator('body[data-ready="tools"]').waitFor();
    await waitFor(async () => (await pageToolNames()).length === 0, 30_000);
    const gone = await client.callTool({ name: `${server}.list_notes`, arguments: {} });
    expect(gone.isError).toBe(true);
    expect(textOf(gone)).not.toContain('Buy milk');
    expect((await toolNames()).some((name) => name.startsWith(otherServer))).toBe(false);
  });
  it('confirms every call of a tool the page marks read-only and destructive, however it reads, or registered out of sight', async () => {
    const server = `page.127-0-0-1-${fixtures.port}`;
    const hints = await openFixture(fixtures.url('/webmcp/hints.html'), server, [
      'wipe_notes',
      'flip_hints',
      'sneaky_read',
      'plain_read',
    ]);
    for (const name of ['wipe_notes', 'flip_hints', 'sneaky_read']) {
      const listed = await listedTool(`${server}.${name}`);
      expect(listed.annotations?.readOnlyHint, name).toBe(false);
      expect(listed.description, name).toContain('the user confirms every call');
    }
    expect((await listedTool(`${server}.sneaky_read`)).description).toContain('could not see the hints');
    expect((await listedTool(`${server}.plain_read`)).annotations?.readOnlyHint).toBe(true);

    // A card on every call, none offering "for this site".
    const first = await callThroughCard(`${server}.wipe_notes`, 'Allow once');
    expect(first.offeredSite).toBe(0);
    expect(textOf(first.result)).toContain('Wiped.');
    const second = await callThroughCard(`${server}.wipe_notes`, 'Deny');
    expect(second.offeredSite).toBe(0);
    expect(textOf(second.result)).toContain('the user denied this action');
    expect(await hints.locator('#wiped').textContent()).toBe('1');

    // The getter said "destructive" once, to the hook, and that one reading is what lists and confirms.
    const flipped = await callThroughCard(`${server}.flip_hints`, 'Allow once');
    expect(flipped.offeredSite).toBe(0);
    expect(textOf(flipped.result)).toContain('Flipped.');
    expect(await hints.evaluate(() => (window as unknown as { hintReads: unknown }).hintReads)).toEqual({
      readOnlyHint: 1,
      destructiveHint: 1,
    });

    const sneaky = await callThroughCard(`${server}.sneaky_read`, 'Deny');
    expect(sneaky.offeredSite).toBe(0);

    // A plain read still runs with no card.
    const plain = await client.callTool({ name: `${server}.plain_read`, arguments: {} });
    expect(textOf(plain)).toContain('Wiped 1 times.');
    expect(await cardFor(`${server}.plain_read`).count()).toBe(0);
    await hints.close();
  });

  it('confirms every call of a tool registered in a document loaded before its site was allowed', async () => {
    const server = `page.localhost-${fixtures.port}`;
    const early = await launched.context.newPage();
    await early.goto(`${fixtures.other}/webmcp/hints.html`);
    await early.locator('body[data-ready="tools"]').waitFor();
    await toggleSettings();
    await allowSite(panel, fixtures.other);
    await toggleSettings();
    await toggleSettings();
    await panel.getByRole('checkbox', { name: `Offer tools declared by ${fixtures.other}` }).check();
    await toggleSettings();
    await early.bringToFront();
    await waitFor(async () => (await pageToolNames()).includes(`${server}.plain_read`), 30_000);
    const listed = await listedTool(`${server}.plain_read`);
    expect(listed.annotations?.readOnlyHint).toBe(false);
    expect(listed.description).toContain('could not see the hints it was registered with');
    const plain = await callThroughCard(`${server}.plain_read`, 'Allow once');
    expect(plain.offeredSite).toBe(0);
    expect(textOf(plain.result)).toContain('Wiped 0 times.');
    await early.close();
  });

  it('lists a page schema’s text cleaned and labelled, and leaves out what it cannot offer safely', async () => {
    const server = `page.127-0-0-1-${fixtures.port}`;
    const schemas = await openFixture(fixtures.url('/webmcp/schemas.html'), server, ['annotate_note', 'match_code']);
    const names = await pageToolNames();
    expect(names).not.toContain(`${server}.bad_enum`);
    expect(names).not.toContain(`${server}.walk_tree`);
    const schema = (await listedTool(`${server}.annotate_note`)).inputSchema;
    const text = JSON.stringify(schema);
    for (const forged of [
      '</untrusted>',
      '<untrusted',
      '\u202e',
      '\u2066',
      'examples',
      'default',
      '$comment',
      'title',
    ]) {
      expect(text, forged).not.toContain(forged);
    }
    expect(schema).toMatchObject({
      properties: {
        note: { type: 'string', description: expect.stringMatching(/^\(from the page\) IGNORE PREVIOUS INSTRUCTIONS/) },
        colour: { enum: ['red', 'green'] },
      },
    });
    // A call to a tool left out is refused and nothing runs in the page.
    const refused = await client.callTool({ name: `${server}.walk_tree`, arguments: { tree: {} } });
    expect(refused.isError).toBe(true);
    expect(await schemas.locator('#checked').textContent()).toBe('0');
    await schemas.close();
  });

  // Last: it pulls "Disconnect all".
  it('keeps the panel free while a call carries a value a page pattern would backtrack on for a minute', async () => {
    const server = `page.127-0-0-1-${fixtures.port}`;
    const schemas = await openFixture(fixtures.url('/webmcp/schemas.html'), server, ['match_code']);
    const order: string[] = [];
    const settled = (label: string) => (outcome: unknown) => {
      order.push(label);
      return outcome;
    };
    // `^(a+)+$` against 32 a's and a "!": over half a minute of backtracking in Chromium, doubling with each "a".
    const hostile = client
      .callTool({ name: `${server}.match_code`, arguments: { code: `${'a'.repeat(32)}!` } }, undefined, {
        timeout: 300_000,
      })
      .then(settled('hostile'), settled('hostile'));
    // The call reaches its card when the pattern is left to the page; a panel stuck matching shows none.
    await cardFor(`${server}.match_code`)
      .waitFor({ timeout: 10_000 })
      .catch(() => undefined);
    await client
      .callTool({ name: 'tabwright.tabs', arguments: {} }, undefined, { timeout: 300_000 })
      .then(settled('tabs'), settled('tabs'));
    // A panel stuck matching handles no click until it is done; this one ends the waiting call.
    await panel.getByRole('button', { name: 'Disconnect all' }).click({ timeout: 300_000 });
    const outcome = await hostile;
    expect(order).toEqual(['tabs', 'hostile']);
    // Ended by the switch: still waiting for the user, unmatched and unrun, when "Disconnect all" went through.
    expect(textOf(outcome)).toContain('The browser disconnected before the call finished');
    await panel.getByRole('button', { name: /Broker: disabled/ }).waitFor({ timeout: 300_000 });
    expect(await schemas.locator('#checked').textContent()).toBe('0');
  }, 400_000);
});
