import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { TabInfo } from '../browser-port';
import type { CallToolResult } from '../response';
import { Blocklist } from './blocklist';
import { auditUnknownTool, runGated, SessionGrants, type GatedCall, type GatedTool } from './call-gate';
import { createGateEnvironment, type GateSources } from './environment';
import { targetOf } from '../tool-spec';
import { AUDIT_STRING_LIMIT, MASK } from './redact';
import type { AuditEntry, ConfirmAnswer, ConfirmRequest } from './types';

const SITE = 'https://app.example';
const tab = (url = `${SITE}/page`, id = 1): TabInfo => ({
  id,
  windowId: 1,
  url,
  title: 't',
  active: true,
  loading: false,
});

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

function call(tool: GatedTool, rawArgs: Record<string, unknown>, more: Partial<GatedCall> = {}) {
  const ran: Array<Record<string, unknown>> = [];
  const gated: GatedCall = {
    agentName: 'Agent',
    server: 'tabwright',
    tool,
    rawArgs,
    signal: new AbortController().signal,
    resolveTab: async () => tab(),
    execute: async (args): Promise<CallToolResult> => {
      ran.push(args);
      return { content: [{ type: 'text', text: `done with ${JSON.stringify(args)}` }] };
    },
    ...more,
  };
  return { gated, ran };
}

const text = (result: CallToolResult) => result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

describe('runGated', () => {
  it('refuses bad arguments first, before any other gate, and audits it', async () => {
    const { env, audit, state, grants } = setup();
    state.killed = true;
    const { gated, ran } = call(typeTool, { text: 5 });
    const result = await runGated(gated, env, grants);
    expect(text(result)).toMatch(/Invalid arguments for type: text/);
    expect(audit[0]?.outcome).toBe('refused:arguments');
    expect(ran).toEqual([]);
  });

  it('refuses everything while the kill switch is engaged, reads included', async () => {
    const { env, audit, state, grants } = setup();
    state.killed = true;
    const { gated, ran } = call(readTool, {});
    expect(text(await runGated(gated, env, grants))).toMatch(/Disconnect all/);
    expect(audit[0]?.outcome).toBe('refused:kill-switch');
    expect(ran).toEqual([]);
  });

  it('refuses when the agent is no longer offered the server', async () => {
    const { env, audit, grants } = setup();
    const { gated, ran } = call(readTool, {}, { exposed: () => false });
    expect(text(await runGated(gated, env, grants))).toMatch(/turned off browser access/);
    expect(audit[0]?.outcome).toBe('refused:exposure');
    expect(ran).toEqual([]);
  });

  it('refuses pages that are not http(s) at the target gate', async () => {
    const { env, audit, grants } = setup();
    const { gated } = call(readTool, {}, { resolveTab: async () => tab('chrome://settings/') });
    await runGated(gated, env, grants);
    expect(audit[0]).toMatchObject({ outcome: 'refused:target', origin: 'chrome://' });
  });

  it('refuses screenshots while they are off or not granted, and runs them when both hold', async () => {
    const { env, audit, state, grants } = setup();
    state.screenshots = false;
    expect(text(await runGated(call(captureTool, {}).gated, env, grants))).toMatch(/screenshots are off/);
    state.screenshots = true;
    state.allUrls = false;
    expect(text(await runGated(call(captureTool, {}).gated, env, grants))).toMatch(/not granted access/);
    state.allUrls = true;
    const { gated, ran } = call(captureTool, {});
    await runGated(gated, env, grants);
    expect(audit.map((e) => e.outcome)).toEqual(['refused:screenshots', 'refused:screenshots', 'ok']);
    expect(ran).toHaveLength(1);
  });

  it('checks the destination before asking, and shows it on the card', async () => {
    const { env, audit, asked, grants } = setup();
    const refused = call(navigateTool, { url: 'https://other.example/' });
    expect(text(await runGated(refused.gated, env, grants))).toMatch(/other.example is not an allowed site/);
    expect(asked).toEqual([]);
    expect(refused.ran).toEqual([]);
    const { gated } = call(navigateTool, { url: `${SITE}/next` });
    await runGated(gated, env, grants);
    expect(asked[0]).toMatchObject({ origin: SITE, tool: 'navigate' });
    expect(audit[1]).toMatchObject({ outcome: 'ok', origin: SITE });
  });

  it('"Allow for this site" covers this agent, tool and site for the session, and nothing wider', async () => {
    const { env, asked, grants } = setup({}, ['site', 'once', 'once', 'once']);
    await runGated(call(typeTool, { text: 'a' }).gated, env, grants);
    await runGated(call(typeTool, { text: 'b' }).gated, env, grants);
    expect(asked).toHaveLength(1);
    await runGated(call(fillTool, { fields: [] }).gated, env, grants);
    expect(asked).toHaveLength(2);
    await runGated({ ...call(typeTool, { text: 'c' }).gated, agentName: 'Other' }, env, grants);
    expect(asked).toHaveLength(3);
    const elsewhere = call(typeTool, { text: 'd' }, { resolveTab: async () => tab('https://b.example/') });
    const { env: env2 } = setup({ allowedSites: () => [SITE, 'https://b.example'] }, ['once']);
    await runGated(elsewhere.gated, env2, grants);
    expect(elsewhere.ran).toHaveLength(1);
  });

  it('asks on every call of an always-confirm tool: no grant is kept, an earlier one is not honoured', async () => {
    const { env, asked, grants } = setup({}, ['site', 'site', 'deny']);
    const consequential: GatedTool = { ...typeTool, name: 'delete_note', alwaysConfirm: true };
    grants.add('Agent', 'tabwright', 'delete_note', SITE);
    const first = call(consequential, { text: 'a' });
    await runGated(first.gated, env, grants);
    await runGated(call(consequential, { text: 'b' }).gated, env, grants);
    const third = call(consequential, { text: 'c' });
    expect(text(await runGated(third.gated, env, grants))).toMatch(/denied/);
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
    const { gated, ran } = call(typeTool, { text: 'x' }, { resolveTab: async () => current });
    expect(text(await runGated(gated, env, grants))).toMatch(/moved to https:\/\/evil.example/);
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
    const { gated, ran } = call(typeTool, { text: 'x' }, { resolveTab: async () => current });
    expect(text(await runGated(gated, env, grants))).toMatch(/moved to a page Tabwright cannot work on/);
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
    const { gated, ran } = call(switchTool, { tabId: 7 });
    expect(text(await runGated(gated, env, grants))).toMatch(/moved to/);
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
      const { gated, ran } = call(typeTool, { text: 'x' });
      await runGated(gated, env, grants);
      expect(audit[0]?.outcome).toBe(change === 'act' ? 'refused:act-mode' : 'refused:kill-switch');
      expect(ran).toEqual([]);
    }
  });

  it('ends a call on a tab the user’s dialog holds before the page is asked or the user is, and audits why', async () => {
    const { env, audit, asked, grants } = setup();
    const inspected: boolean[] = [];
    const { gated, ran } = call(
      typeTool,
      { ref: 'e1', text: 'a' },
      {
        unavailable: async (at) => (at.id === 1 ? 'The page is showing its own confirm dialog.' : undefined),
        inspectTargets: async (_args, _typed, _tab, describe) => {
          inspected.push(describe);
          return { secret: new Set(), described: [] };
        },
      },
    );
    const result = await runGated(gated, env, grants);
    expect(result.isError).toBe(true);
    expect(text(result)).toBe('The page is showing its own confirm dialog.');
    expect([inspected, asked, ran]).toEqual([[], [], []]);
    expect(audit[0]).toMatchObject({ outcome: 'error', detail: 'The page is showing its own confirm dialog.' });
  });

  it('does not ask a refused tab whether it is held: the gates speak first', async () => {
    const { env, audit, state, grants } = setup();
    state.allowed = [];
    const looked: number[] = [];
    const { gated } = call(readTool, {}, { unavailable: async (at) => void looked.push(at.id) });
    await runGated(gated, env, grants);
    expect(looked).toEqual([]);
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
    const { gated, ran } = call(typeTool, { text: 'x' }, { signal: controller.signal });
    expect(text(await runGated(gated, env, grants))).toMatch(/cancelled: the agent cancelled/);
    expect(audit[0]?.outcome).toBe('cancelled');
    expect(ran).toEqual([]);
  });

  it('masks what goes into password fields on the card, in the log and in the result', async () => {
    const { env, audit, asked, grants } = setup();
    const { gated, ran } = call(
      fillTool,
      {
        fields: [
          { ref: 'e1', value: 'alice' },
          { ref: 'e2', value: 'hunter2-secret' },
        ],
      },
      { inspectTargets: async () => ({ secret: new Set(['e2']), described: [] }) },
    );
    const result = await runGated(gated, env, grants);
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
    const { gated } = call(
      typeTool,
      { ref: 'e9', text: 'maybe-a-password' },
      {
        inspectTargets: async () => {
          throw new Error('frame gone');
        },
      },
    );
    await runGated(gated, env, grants);
    expect(audit[0]?.args).toEqual({ ref: 'e9', text: MASK });
  });

  it('shows the tab’s full URL and every target as the page describes it, asking the page once', async () => {
    const { env, asked, grants } = setup();
    const inspected: boolean[] = [];
    const { gated } = call(
      fillTool,
      {
        fields: [
          { ref: 'e1', value: 'alice' },
          { ref: 'e7', value: 'x' },
        ],
      },
      {
        resolveTab: async () => tab(`${SITE}/projects/42/settings?tab=danger#delete`),
        inspectTargets: async (_args, _typed, _tab, describe) => {
          inspected.push(describe);
          return {
            secret: new Set(),
            described: [{ target: 'e1', element: { role: 'textbox', name: 'User name' } }, { target: 'e7' }],
          };
        },
      },
    );
    await runGated(gated, env, grants);
    expect(inspected).toEqual([true]);
    expect(asked[0]?.url).toBe(`${SITE}/projects/42/settings?tab=danger#delete`);
    expect(asked[0]?.targets).toEqual([
      { target: 'e1', element: { role: 'textbox', name: 'User name' } },
      { target: 'e7' },
    ]);
  });

  it('asks the page only about typed values when no card will be shown', async () => {
    const { env, asked, grants } = setup({}, ['site', 'once']);
    const inspected: boolean[] = [];
    const inspectTargets: GatedCall['inspectTargets'] = async (_args, _typed, _tab, describe) => {
      inspected.push(describe);
      return { secret: new Set(), described: [] };
    };
    await runGated(call(typeTool, { ref: 'e1', text: 'a' }, { inspectTargets }).gated, env, grants);
    await runGated(call(typeTool, { ref: 'e1', text: 'b' }, { inspectTargets }).gated, env, grants);
    await runGated(call(readTool, {}, { inspectTargets }).gated, env, grants);
    expect(inspected).toEqual([true, false, false]);
    expect(asked).toHaveLength(1);
  });

  it('says no target was found when the page could not be asked, and still masks every typed value', async () => {
    const { env, asked, grants } = setup();
    const { gated } = call(
      typeTool,
      { ref: 'e9', text: 'maybe-a-password' },
      {
        inspectTargets: async () => {
          throw new Error('frame gone');
        },
      },
    );
    await runGated(gated, env, grants);
    expect(asked[0]?.args).toEqual({ ref: 'e9', text: MASK });
    expect(asked[0]?.targets).toEqual([{ target: 'e9' }]);
    expect(asked[0]?.url).toBe(`${SITE}/page`);
  });

  it('masks values the user marked as secret, and secret-looking keys', async () => {
    const { env, audit, asked, grants } = setup({ secretValues: () => ['ACCT-99887766'] });
    const { gated } = call(
      { ...typeTool, input: z.object({ text: z.string(), apiKey: z.string() }) },
      { text: 'pay to ACCT-99887766 now', apiKey: 'k-123' },
    );
    const result = await runGated(gated, env, grants);
    expect(asked[0]?.args).toEqual({ text: `pay to ${MASK} now`, apiKey: MASK });
    expect(audit[0]?.args).toEqual({ text: `pay to ${MASK} now`, apiKey: MASK });
    expect(text(result)).not.toContain('ACCT-99887766');
  });

  it('keeps audit entries small: long values are shortened', async () => {
    const { env, audit, grants } = setup();
    await runGated(call(typeTool, { text: 'y'.repeat(50_000) }).gated, env, grants);
    const logged = audit[0]?.args.text as string;
    expect(logged.length).toBeLessThan(AUDIT_STRING_LIMIT + 100);
    expect(logged).toMatch(/48000 more characters/);
  });

  it('audits a tool failure as an error with its reason', async () => {
    const { env, audit, grants } = setup();
    const { gated } = call(
      readTool,
      {},
      {
        execute: async () => {
          throw new Error('boom');
        },
      },
    );
    expect(text(await runGated(gated, env, grants))).toBe('The tool failed: boom');
    expect(audit[0]).toMatchObject({ outcome: 'error', detail: 'The tool failed: boom' });
  });

  it('audits calls to unknown tools', () => {
    const { env, audit } = setup();
    auditUnknownTool(env, 'Agent', 'tabwright', 'tabwright.nope', { password: 'x' }, 'Unknown tool');
    expect(audit[0]).toMatchObject({ tool: 'tabwright.nope', outcome: 'refused:arguments', args: { password: MASK } });
  });
});
