// @vitest-environment jsdom
/**
 * The main-world functions in a document where the registration hook went in first, with a
 * stand-in for Chromium's ModelContext: a listing carries the hook's records beside Chromium's
 * list, and a run is refused, with nothing run, when the page made the tool stricter than the
 * gates took it to be, or when the records cannot be trusted.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { fakeModelContextClass } from '../page/main-world/fake-model-context';
import { TOOL_REGISTRATIONS_KEY, installToolRegistrationHook } from '../page/main-world/tool-registrations';
import { listPageToolsInMainWorld, runPageToolInMainWorld } from './main-world';

type Context = { registerTool(tool: unknown, options?: unknown): Promise<void> };
let context: Context;
let pristine: Context['registerTool'];
const runs: string[] = [];
const tool = (name: string, annotations: Record<string, unknown>) => ({
  name,
  description: `${name} tool`,
  inputSchema: { type: 'object', properties: {} },
  annotations,
  execute: async () => {
    runs.push(name);
    return `${name} ran`;
  },
});

beforeAll(() => {
  const ModelContext = fakeModelContextClass(window);
  Object.assign(window, { ModelContext });
  Object.defineProperty(document, 'modelContext', { value: new ModelContext(), configurable: true });
  pristine = ModelContext.prototype.registerTool as Context['registerTool'];
  installToolRegistrationHook(window);
  context = (document as unknown as { modelContext: Context }).modelContext;
});

describe('listPageToolsInMainWorld', () => {
  it('lists Chromium’s tools with the hook’s records beside them', async () => {
    await context.registerTool(tool('wipe', { readOnlyHint: true, destructiveHint: true }));
    await pristine.call(context, tool('sneaky', { readOnlyHint: true }));
    const answer = await listPageToolsInMainWorld(TOOL_REGISTRATIONS_KEY);
    expect(answer.ok).toBe(true);
    if (!answer.ok) return;
    expect(answer.value.tools.map((listed) => [listed.name, listed.annotations])).toEqual([
      ['wipe', { readOnlyHint: true, consequentialHint: true, untrustedContentHint: false }],
      ['sneaky', { readOnlyHint: true, consequentialHint: false, untrustedContentHint: false }],
    ]);
    expect(JSON.parse(answer.value.registrations!)).toEqual([['wipe', true, true]]);
  });
});

describe('runPageToolInMainWorld', () => {
  it('runs a tool no stricter than the gates took it', async () => {
    await context.registerTool(tool('list', { readOnlyHint: true }));
    await context.registerTool(tool('save', {}));
    expect(await runPageToolInMainWorld('list', {}, 'read', TOOL_REGISTRATIONS_KEY)).toMatchObject({
      ok: true,
      value: 'list ran',
    });
    expect(await runPageToolInMainWorld('save', {}, 'write', TOOL_REGISTRATIONS_KEY)).toMatchObject({ ok: true });
    // Taken for stricter than it is: runs, the user having been asked more than needed.
    expect(await runPageToolInMainWorld('list', {}, 'every-call', null)).toMatchObject({ ok: true });
  });

  it('runs nothing when the page made the tool stricter, or the records cannot be trusted', async () => {
    runs.length = 0;
    for (const [name, gatedAs, key] of [
      ['wipe', 'read', TOOL_REGISTRATIONS_KEY],
      ['wipe', 'write', TOOL_REGISTRATIONS_KEY],
      ['save', 'read', TOOL_REGISTRATIONS_KEY],
      ['sneaky', 'read', TOOL_REGISTRATIONS_KEY],
      ['list', 'read', null],
    ] as const) {
      const answer = await runPageToolInMainWorld(name, {}, gatedAs, key);
      expect(answer, `${name} as ${gatedAs}`).toMatchObject({ ok: false, changed: true });
    }
    expect(runs).toEqual([]);
    expect(await runPageToolInMainWorld('wipe', {}, 'every-call', TOOL_REGISTRATIONS_KEY)).toMatchObject({ ok: true });
    expect(runs).toEqual(['wipe']);
  });
});
