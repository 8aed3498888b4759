/**
 * A call's path through the gated server, with a scripted page and a tool that records what it
 * was run with: each gate in its order, the confirmation and what it shows, the gates again after
 * it, the user's dialog, secrets masked, and the audit entry of every call.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PageCommand } from '../page/protocol';
import type { PageTransport, TabInfo } from './browser-port';
import { DialogHolds, heldText } from './dialogs';
import { GatedServer, type ToolKind } from './gated-server';
import { Blocklist } from './gates/blocklist';
import { auditUnknownTool, SessionGrants } from './gates/call-gate';
import { createGateEnvironment, type GateSources } from './gates/environment';
import { AUDIT_STRING_LIMIT, MASK } from './gates/redact';
import type { AuditEntry, ConfirmAnswer, ConfirmRequest, GateEnvironment, RefusalNotice } from './gates/types';
import { ToolRegistry } from './registry';
import type { CallToolResult } from './response';
import { targetOf, type ToolSpec } from './tool-spec';

const SITE = 'https://app.example';
const tab = (url = `${SITE}/page`, id = 1): TabInfo => ({
  id,
  windowId: 1,
  url,
  title: 't',
  active: true,
  loading: false,
});

type GatedTool = Omit<ToolSpec, 'title' | 'description'>;

const typeTool: GatedTool = {
  name: 'type',
  input: z.object({ ref: z.string().optional(), text: z.string() }),
  effect: 'write',
  scope: 'page',
  typedInto: (args) => targetOf(args as { ref?: string }),
};
const fillTool: GatedTool = {
  name: 'fill_form',
  input: z.object({ fields: z.array(z.object({ ref: z.string(), value: z.string() })) }),
  effect: 'write',
  scope: 'page',
  typedInto: (args) => (args.fields as Array<{ ref: string }>).flatMap(targetOf),
};
const clickTool: GatedTool = { name: 'click', input: z.object({ ref: z.string() }), effect: 'write', scope: 'page' };
const readTool: GatedTool = { name: 'snapshot', input: z.object({}), effect: 'read', scope: 'page' };
const captureTool: GatedTool = { ...readTool, name: 'screenshot', capturesScreen: true };
const navigateTool: GatedTool = {
  name: 'navigate',
  input: z.object({ url: z.string() }),
  effect: 'write',
  scope: 'page',
  destination: async (args) => args.url as string,
};

function setup(overrides: Partial<GateSources> = {}, answers: ConfirmAnswer[] = ['once']) {
  const audit: AuditEntry[] = [];
  const asked: ConfirmRequest[] = [];
  const state = { killed: false, act: true, screenshots: true, allUrls: true, allowed: [SITE] as string[] };
  const env = createGateEnvironment({
    now: () => 1000,
    killed: () => state.killed,
    actMode: () => state.act,
    allowedSites: () => state.allowed,
    screenshots: () => state.screenshots,
    blocklist: () => new Blocklist([]),
    hasHostPermission: async () => true,
    hasAllUrls: async () => state.allUrls,
    secretValues: () => [],
    confirm: async (request) => {
      asked.push(request);
      return answers.shift() ?? 'deny';
    },
    audit: (entry) => audit.push(entry),
    ...overrides,
  });
  return { env, audit, asked, state, grants: new SessionGrants() };
}

/** What the page says of the targets it is asked about; a function may throw (the page could not be asked). */
interface PageAnswer {
  targets: Array<{ found: false } | { found: true; secret: boolean; role: string; name: string }>;
}
type PageSays = (targets: Array<{ ref?: string; selector?: string }>) => PageAnswer | Promise<PageAnswer>;

interface CallOptions {
  agentName?: string;
  exposed?: () => boolean;
  resolveTab?: () => Promise<TabInfo | undefined>;
  signal?: AbortSignal;
  execute?: (args: Record<string, unknown>) => Promise<void>;
  /** The page's answers to `inspectTargets`; by default every target is a plain field found. */
  page?: PageSays;
  /** The user's own dialog is open in tab 1. */
  held?: boolean;
}

const plainPage: PageSays = (targets) => ({
  targets: targets.map(() => ({ found: true as const, secret: false, role: 'textbox', name: 'Field' })),
});

/** A call of `tool` through a gated server whose kind records what it ran, with a scripted page. */
function call(tool: GatedTool, rawArgs: Record<string, unknown>, more: CallOptions = {}) {
  const ran: Array<Record<string, unknown>> = [];
  /** Which targets the page was asked about, per inspection. */
  const inspected: string[][] = [];
  const spec: ToolSpec = { title: tool.name, description: tool.name, ...tool };
  const transport: PageTransport = {
    frames: async () => [{ frameId: 0, parentFrameId: -1, url: `${SITE}/page`, documentId: 'd0' }],
    send: async (_tabId, command: PageCommand) => {
      if (command.op !== 'inspectTargets') throw new Error(`unexpected ${command.op}`);
      inspected.push(command.targets.map((target) => ('ref' in target ? target.ref : target.selector)));
      const value = await (more.page ?? plainPage)(command.targets);
      return { value, url: `${SITE}/page`, documentId: 'p0' } as never;
    },
  };
  /** The tabs the user's-dialog check looked at. */
  const probed: number[] = [];
  const holds = new DialogHolds({
    answers: async (tabId) => {
      probed.push(tabId);
      return !more.held;
    },
  });
  if (more.held) holds.opened(1, 0, 'confirm');
  const kind: ToolKind<ToolSpec> = {
    name: 'tabwright',
    version: '0',
    offer: () => new ToolRegistry('tabwright', [spec]),
    findTab: () => (more.resolveTab ?? (async () => tab()))(),
    run: async (session, _tool, args) => {
      if (more.execute) await more.execute(args);
      ran.push(args);
      session.response.text(`done with ${JSON.stringify(args)}`);
    },
  };
  const run = (env: GateEnvironment, grants: SessionGrants): Promise<CallToolResult> =>
    new GatedServer(kind, {
      agentName: () => more.agentName ?? 'Agent',
      gates: env,
      grants,
      ...(more.exposed ? { exposed: more.exposed } : {}),
      page: transport,
      holds,
    }).call(`tabwright.${tool.name}`, rawArgs, { signal: more.signal ?? new AbortController().signal, requestId: '1' });
  return { run, ran, inspected, probed };
}

const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('a call through the gated server', () => {
  it('refuses bad arguments first, before any other gate, and audits it', async () => {
    const { env, audit, state, grants } = setup();
    state.killed = true;
    const { run, ran } = call(typeTool, { text: 5 });
    const result = await run(env, grants);
    expect(text(result)).toMatch(/Invalid arguments for type: text/);
    expect(audit[0]?.outcome).toBe('refused:arguments');
    expect(ran).toEqual([]);
  });

  it('refuses everything while the kill switch is engaged, reads included', async () => {
    const { env, audit, state, grants } = setup();
    state.killed = true;
    const { run, ran } = call(readTool, {});
    expect(text(await run(env, grants))).toMatch(/Disconnect all/);
    expect(audit[0]?.outcome).toBe('refused:kill-switch');
    expect(ran).toEqual([]);
  });

  it('refuses when the agent is no longer offered the server', async () => {
    const { env, audit, grants } = setup();
    const { run, ran } = call(readTool, {}, { exposed: () => false });
    expect(text(await run(env, grants))).toMatch(/turned off browser access/);
    expect(audit[0]?.outcome).toBe('refused:exposure');
    expect(ran).toEqual([]);
  });

  it('refuses pages that are not http(s) at the target gate', async () => {
    const { env, audit, grants } = setup();
    const { run } = call(readTool, {}, { resolveTab: async () => tab('chrome://settings/') });
    await run(env, grants);
    expect(audit[0]).toMatchObject({ outcome: 'refused:target', origin: 'chrome://' });
  });

  it('refuses screenshots while they are off or not granted, and runs them when both hold', async () => {
    const { env, audit, state, grants } = setup();
    state.screenshots = false;
    expect(text(await call(captureTool, {}).run(env, grants))).toMatch(/screenshots are off/);
    state.screenshots = true;
    state.allUrls = false;
    expect(text(await call(captureTool, {}).run(env, grants))).toMatch(/not granted access/);
    state.allUrls = true;
    const { run, ran } = call(captureTool, {});
    await run(env, grants);
    expect(audit.map((e) => e.outcome)).toEqual(['refused:screenshots', 'refused:screenshots', 'ok']);
    expect(ran).toHaveLength(1);
  });

  it('tells the panel of each refusal, with the address the origin gate refused, and the agent nothing more', async () => {
    const notices: RefusalNotice[] = [];
    const { env, state, grants } = setup({ refused: (notice) => notices.push(notice) });
    const toOther = await call(navigateTool, { url: 'https://other.example/x' }, { agentName: 'Demo' }).run(
      env,
      grants,
    );
    state.act = false;
    const readOnly = await call(clickTool, { ref: 'e1' }).run(env, grants);
    expect(notices).toEqual([
      {
        callerId: 'Demo',
        callerLabel: 'Demo',
        server: 'tabwright',
        tool: 'navigate',
        gate: 'origin',
        url: 'https://other.example/x',
      },
      { callerId: 'Agent', callerLabel: 'Agent', server: 'tabwright', tool: 'click', gate: 'act-mode' },
    ]);
    expect(text(toOther)).toBe(
      'Refused: https://other.example is not an allowed site. Only the user can allow it, in Tabwright settings; ask them.',
    );
    expect(text(readOnly)).toMatch(/^Refused: act mode is off/);
  });

  it("says on a site tool's card that it works in its own tab on the site", async () => {
    const { env, asked, grants } = setup();
    await call({ ...clickTool, name: 'add_note', scope: 'site', input: z.object({}) }, {}).run(env, grants);
    await call(clickTool, { ref: 'e1' }).run(env, grants);
    expect(asked.map((request) => request.ownTab)).toEqual([true, undefined]);
  });

  it('checks the destination before asking, and shows it on the card', async () => {
    const { env, audit, asked, grants } = setup();
    const refused = call(navigateTool, { url: 'https://other.example/' });
    expect(text(await refused.run(env, grants))).toMatch(/other.example is not an allowed site/);
    expect(asked).toEqual([]);
    expect(refused.ran).toEqual([]);
    const { run } = call(navigateTool, { url: `${SITE}/next` });
    await run(env, grants);
    expect(asked[0]).toMatchObject({ origin: SITE, tool: 'navigate' });
    expect(audit[1]).toMatchObject({ outcome: 'ok', origin: SITE });
  });

  it('"Allow for this site" covers this agent, tool and site for the session, and nothing wider', async () => {
    const { env, asked, grants } = setup({}, ['site', 'once', 'once', 'once']);
    await call(typeTool, { text: 'a' }).run(env, grants);
    await call(typeTool, { text: 'b' }).run(env, grants);
    expect(asked).toHaveLength(1);
    await call(fillTool, { fields: [] }).run(env, grants);
    expect(asked).toHaveLength(2);
    await call(typeTool, { text: 'c' }, { agentName: 'Other' }).run(env, grants);
    expect(asked).toHaveLength(3);
    const elsewhere = call(typeTool, { text: 'd' }, { resolveTab: async () => tab('https://b.example/') });
    const { env: env2 } = setup({ allowedSites: () => [SITE, 'https://b.example'] }, ['once']);
    await elsewhere.run(env2, grants);
    expect(elsewhere.ran).toHaveLength(1);
  });

  it('asks on every call of an always-confirm tool: no grant is kept, an earlier one is not honoured', async () => {
    const { env, asked, grants } = setup({}, ['site', 'site', 'deny']);
    const consequential: GatedTool = { ...typeTool, name: 'delete_note', alwaysConfirm: true };
    grants.add('Agent', 'tabwright', 'delete_note', SITE);
    const first = call(consequential, { text: 'a' });
    await first.run(env, grants);
    await call(consequential, { text: 'b' }).run(env, grants);
    const third = call(consequential, { text: 'c' });
    expect(text(await third.run(env, grants))).toMatch(/denied/);
    expect(asked).toHaveLength(3);
    expect(asked.every((request) => request.everyTime === true)).toBe(true);
    expect(first.ran).toHaveLength(1);
    expect(third.ran).toHaveLength(0);
    expect(grants.size).toBe(1);
  });

  it('refuses after a yes when the tab moved to another site while the card was up', async () => {
    let current = tab();
    const { env, audit, grants } = setup({
      confirm: async () => {
        current = tab('https://app.example/other', 1);
        current = tab('https://evil.example/', 1);
        return 'once';
      },
      allowedSites: () => [SITE, 'https://evil.example'],
    });
    const { run, ran } = call(typeTool, { text: 'x' }, { resolveTab: async () => current });
    expect(text(await run(env, grants))).toMatch(/moved to https:\/\/evil.example/);
    expect(audit[0]?.outcome).toBe('refused:confirmation');
    expect(ran).toEqual([]);
  });

  it('says the tab moved when the user switched to a non-web tab while the card was up', async () => {
    let current: TabInfo | undefined = tab();
    const { env, audit, grants } = setup({
      confirm: async () => {
        current = tab('chrome://newtab/', 2);
        return 'once';
      },
    });
    const { run, ran } = call(typeTool, { text: 'x' }, { resolveTab: async () => current });
    expect(text(await run(env, grants))).toMatch(/moved to a page Tabwright cannot work on/);
    expect(audit[0]?.outcome).toBe('refused:confirmation');
    expect(ran).toEqual([]);
  });

  it('refuses after a yes when the tab named by id went to another site meanwhile', async () => {
    let named = `${SITE}/other-tab`;
    const switchTool: GatedTool = {
      name: 'switch_tab',
      input: z.object({ tabId: z.number() }),
      effect: 'write',
      scope: 'tabs',
      destination: async () => named,
    };
    const { env, asked, audit, grants } = setup({
      allowedSites: () => [SITE, 'https://b.example'],
      confirm: async (request) => {
        asked.push(request);
        named = 'https://b.example/';
        return 'once';
      },
    });
    const { run, ran } = call(switchTool, { tabId: 7 });
    expect(text(await run(env, grants))).toMatch(/moved to/);
    expect(asked[0]).toMatchObject({ origin: SITE });
    expect(audit[0]?.outcome).toBe('refused:confirmation');
    expect(ran).toEqual([]);
  });

  it('refuses after a yes when act mode went off or the switch was pulled meanwhile', async () => {
    for (const change of ['act', 'killed'] as const) {
      const { env, audit, state, grants } = setup({
        confirm: async () => {
          if (change === 'act') state.act = false;
          else state.killed = true;
          return 'once';
        },
      });
      const { run, ran } = call(typeTool, { text: 'x' });
      await run(env, grants);
      expect(audit[0]?.outcome).toBe(change === 'act' ? 'refused:act-mode' : 'refused:kill-switch');
      expect(ran).toEqual([]);
    }
  });

  it('ends a call on a tab the user’s dialog holds before the page is asked or the user is, and audits why', async () => {
    const { env, audit, asked, grants } = setup();
    const { run, ran, inspected } = call(typeTool, { ref: 'e1', text: 'a' }, { held: true });
    const result = await run(env, grants);
    expect(result.isError).toBe(true);
    expect(text(result)).toBe(heldText('confirm'));
    expect([inspected, asked, ran]).toEqual([[], [], []]);
    expect(audit[0]).toMatchObject({ outcome: 'error', detail: heldText('confirm') });
  });

  it('does not ask a refused tab whether it is held: the gates speak first', async () => {
    const { env, audit, state, grants } = setup();
    state.allowed = [];
    const { run, probed } = call(readTool, {}, { held: true });
    await run(env, grants);
    expect(probed).toEqual([]);
    expect(audit[0]?.outcome).toBe('refused:origin');
  });

  it('records a call cancelled while waiting for the user as cancelled, and runs nothing', async () => {
    const controller = new AbortController();
    const { env, audit, grants } = setup({
      confirm: async () => {
        controller.abort(new Error('the agent cancelled'));
        return 'cancelled';
      },
    });
    const { run, ran } = call(typeTool, { text: 'x' }, { signal: controller.signal });
    expect(text(await run(env, grants))).toMatch(/cancelled: the agent cancelled/);
    expect(audit[0]?.outcome).toBe('cancelled');
    expect(ran).toEqual([]);
  });

  it('masks what goes into password fields on the card, in the log and in the result', async () => {
    const { env, audit, asked, grants } = setup();
    const { run, ran } = call(
      fillTool,
      {
        fields: [
          { ref: 'e1', value: 'alice' },
          { ref: 'e2', value: 'hunter2-secret' },
        ],
      },
      {
        page: (targets) => ({
          targets: targets.map((target) => ({
            found: true as const,
            secret: target.ref === 'e2',
            role: 'textbox',
            name: 'Field',
          })),
        }),
      },
    );
    const result = await run(env, grants);
    const shown = {
      fields: [
        { ref: 'e1', value: 'alice' },
        { ref: 'e2', value: MASK },
      ],
    };
    expect(asked[0]?.args).toEqual(shown);
    expect(audit[0]?.args).toEqual(shown);
    // The tool itself gets the real value; the model never sees it echoed back.
    expect(JSON.stringify(ran)).toContain('hunter2-secret');
    expect(text(result)).not.toContain('hunter2-secret');
    expect(text(result)).toContain(MASK);
  });

  it('treats every typed value as secret when the page cannot say which fields are passwords', async () => {
    const { env, audit, grants } = setup();
    const { run } = call(
      typeTool,
      { ref: 'e9', text: 'maybe-a-password' },
      {
        page: () => {
          throw new Error('frame gone');
        },
      },
    );
    await run(env, grants);
    expect(audit[0]?.args).toEqual({ ref: 'e9', text: MASK });
  });

  it('shows the tab’s full URL and every target as the page describes it, asking the page once', async () => {
    const { env, asked, grants } = setup();
    const { run, inspected } = call(
      fillTool,
      {
        fields: [
          { ref: 'e1', value: 'alice' },
          { ref: 'e7', value: 'x' },
        ],
      },
      {
        resolveTab: async () => tab(`${SITE}/projects/42/settings?tab=danger#delete`),
        page: () => ({
          targets: [{ found: true, secret: false, role: 'textbox', name: 'User name' }, { found: false }],
        }),
      },
    );
    await run(env, grants);
    expect(inspected).toEqual([['e1', 'e7']]);
    expect(asked[0]?.url).toBe(`${SITE}/projects/42/settings?tab=danger#delete`);
    expect(asked[0]?.targets).toEqual([
      { target: 'e1', element: { role: 'textbox', name: 'User name' } },
      { target: 'e7' },
    ]);
  });

  it('asks the page only about typed values when no card will be shown', async () => {
    const { env, asked, grants } = setup({}, ['site', 'site']);
    // The first click is asked about (a card), the second is granted: only typed targets are asked about then.
    const first = call(clickTool, { ref: 'e1' });
    await first.run(env, grants);
    const second = call(clickTool, { ref: 'e1' });
    await second.run(env, grants);
    const typed = call(typeTool, { ref: 'e2', text: 'b' });
    await typed.run(env, grants);
    const typedAgain = call(typeTool, { ref: 'e2', text: 'c' });
    await typedAgain.run(env, grants);
    const read = call(readTool, {});
    await read.run(env, grants);
    expect([first, second, typed, typedAgain, read].map((c) => c.inspected)).toEqual([
      [['e1']],
      [],
      [['e2']],
      [['e2']],
      [],
    ]);
    expect(asked).toHaveLength(2);
  });

  it('asks which typed field is secret beside a granted action, and masks its value once the page answers', async () => {
    const { env, audit, grants } = setup({}, ['site']);
    await call(typeTool, { ref: 'e1', text: 'alice' }).run(env, grants);
    let acting!: () => void;
    const action = new Promise<void>((resolve) => (acting = resolve));
    const { run, ran } = call(
      typeTool,
      { ref: 'e2', text: 'hunter2-secret' },
      {
        // The page answers only once the action has begun: a call that waited for the answer first never acts.
        page: async (targets) => {
          await action;
          return { targets: targets.map(() => ({ found: true as const, secret: true, role: 'textbox', name: 'PIN' })) };
        },
        execute: async () => acting(),
      },
    );
    const result = await run(env, grants);
    expect(ran).toHaveLength(1);
    expect(audit[1]).toMatchObject({ outcome: 'ok', args: { ref: 'e2', text: MASK } });
    expect(text(result)).not.toContain('hunter2-secret');
    expect(text(result)).toContain(MASK);
  });

  it('says no target was found when the page could not be asked, and still masks every typed value', async () => {
    const { env, asked, grants } = setup();
    const { run } = call(
      typeTool,
      { ref: 'e9', text: 'maybe-a-password' },
      {
        page: () => {
          throw new Error('frame gone');
        },
      },
    );
    await run(env, grants);
    expect(asked[0]?.args).toEqual({ ref: 'e9', text: MASK });
    expect(asked[0]?.targets).toEqual([{ target: 'e9' }]);
    expect(asked[0]?.url).toBe(`${SITE}/page`);
  });

  it('masks values the user marked as secret, and secret-looking keys', async () => {
    const { env, audit, asked, grants } = setup({ secretValues: () => ['ACCT-99887766'] });
    const { run } = call(
      { ...typeTool, input: z.object({ text: z.string(), apiKey: z.string() }) },
      { text: 'pay to ACCT-99887766 now', apiKey: 'k-123' },
    );
    const result = await run(env, grants);
    expect(asked[0]?.args).toEqual({ text: `pay to ${MASK} now`, apiKey: MASK });
    expect(audit[0]?.args).toEqual({ text: `pay to ${MASK} now`, apiKey: MASK });
    expect(text(result)).not.toContain('ACCT-99887766');
  });

  it('keeps audit entries small: long values are shortened', async () => {
    const { env, audit, grants } = setup();
    await call(typeTool, { text: 'y'.repeat(50_000) }).run(env, grants);
    const logged = audit[0]?.args.text as string;
    expect(logged.length).toBeLessThan(AUDIT_STRING_LIMIT + 100);
    expect(logged).toMatch(/48000 more characters/);
  });

  it('audits a tool failure as an error with its reason', async () => {
    const { env, audit, grants } = setup();
    const { run } = call(
      readTool,
      {},
      {
        execute: async () => {
          throw new Error('boom');
        },
      },
    );
    expect(text(await run(env, grants))).toBe('The tool failed: boom');
    expect(audit[0]).toMatchObject({ outcome: 'error', detail: 'The tool failed: boom' });
  });

  it('audits calls to unknown tools', () => {
    const { env, audit } = setup();
    auditUnknownTool(env, 'Agent', 'tabwright', 'tabwright.nope', { password: 'x' }, 'Unknown tool');
    expect(audit[0]).toMatchObject({ tool: 'tabwright.nope', outcome: 'refused:arguments', args: { password: MASK } });
  });
});
