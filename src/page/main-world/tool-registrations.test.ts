// @vitest-environment jsdom
/**
 * The registration hook against a stand-in for Chromium's ModelContext: Chromium gets one copy of
 * the descriptor and the hook keeps that copy's hints, a destructive tool is consequential to
 * Chromium too, what is kept per name only gets stricter, and a registration made out of the
 * hook's sight, or refused, leaves no record.
 */
import { describe, expect, it } from 'vitest';
import { windowWithModelContext, type HeldTool } from './fake-model-context';
import { MAX_RECORDED_NAMES, TOOL_REGISTRATIONS_KEY, installToolRegistrationHook } from './tool-registrations';

type Context = {
  registerTool(tool: unknown, options?: unknown): Promise<void>;
  held: HeldTool[];
};

function hooked() {
  const win = windowWithModelContext();
  const pristine = (win as unknown as { ModelContext: { prototype: Context } }).ModelContext.prototype.registerTool;
  installToolRegistrationHook(win);
  const context = (win.document as unknown as { modelContext: Context }).modelContext;
  const reader = (win as unknown as Record<string, (name?: string) => unknown>)[TOOL_REGISTRATIONS_KEY]!;
  const records = () => JSON.parse(reader() as string) as [string, boolean, boolean][];
  return { win, context, pristine, reader, records };
}

const execute = async () => 'ran';

describe('installToolRegistrationHook', () => {
  it('hands Chromium a copy that keeps a destructive tool consequential, and records its hints', async () => {
    const { context, records, reader } = hooked();
    await context.registerTool({
      name: 'wipe',
      description: 'Deletes every note.',
      annotations: { readOnlyHint: true, destructiveHint: true },
      execute,
    });
    expect(context.held[0]!.annotations).toMatchObject({ readOnlyHint: true, consequentialHint: true });
    expect(context.held[0]!.execute).toBe(execute);
    expect(records()).toEqual([['wipe', true, true]]);
    expect(reader('wipe')).toEqual({ readOnlyHint: true, destructiveHint: true });
    expect(reader('nothing')).toBeUndefined();
  });

  it('reads each hint once, so a getter cannot tell Chromium one thing and the record another', async () => {
    const { context, records } = hooked();
    let reads = 0;
    const annotations = {
      readOnlyHint: true,
      get destructiveHint() {
        reads++;
        return reads === 1;
      },
      get consequentialHint() {
        reads++;
        return false;
      },
    };
    await context.registerTool({ name: 'flip', annotations, execute });
    expect(reads).toBe(2);
    expect(records()).toEqual([['flip', true, true]]);
    expect(context.held[0]!.annotations.consequentialHint).toBe(true);
  });

  it('records nothing for a registration made with a method from outside its sight, or refused', async () => {
    const { context, pristine, records } = hooked();
    await pristine.call(context, { name: 'sneaky', annotations: { readOnlyHint: true }, execute });
    await context.registerTool({ name: 'sneaky', annotations: { readOnlyHint: true }, execute }).catch(() => undefined);
    const aborted = new AbortController();
    aborted.abort();
    await context
      .registerTool({ name: 'late', annotations: { readOnlyHint: true }, execute }, { signal: aborted.signal })
      .catch(() => undefined);
    expect(context.held.map((tool) => tool.name)).toEqual(['sneaky']);
    expect(records()).toEqual([]);
  });

  it('keeps the strictest hints a name was registered with, and forgets a withdrawn registration', async () => {
    const { context, pristine, records } = hooked();
    const first = new AbortController();
    await context.registerTool(
      { name: 'save', annotations: { destructiveHint: true }, execute },
      { signal: first.signal },
    );
    first.abort();
    expect(records()).toEqual([]);
    await pristine.call(context, { name: 'save', annotations: { readOnlyHint: true }, execute });
    // Chromium holds a tool the hook did not see: no record, however the page re-registers.
    expect(records()).toEqual([]);
    context.held.length = 0;
    await context.registerTool({ name: 'save', annotations: { readOnlyHint: true }, execute });
    expect(records()).toEqual([['save', false, true]]);
  });

  it('counts any truthy destructive signal, and only a plain true as read-only', async () => {
    const { context, records } = hooked();
    await context.registerTool({ name: 'a', annotations: { readOnlyHint: 'yes', consequentialHint: 1 }, execute });
    await context.registerTool({ name: 'b', annotations: { readOnlyHint: true }, execute });
    expect(records()).toEqual([
      ['a', false, true],
      ['b', true, false],
    ]);
  });

  it('cannot be misled by a page that patches builtins, nor have its reader replaced', async () => {
    const { win, context, records } = hooked();
    Object.defineProperty(win.Object.prototype, 'annotations', { set() {}, configurable: true });
    Object.defineProperty(win.Array.prototype, 'toJSON', { value: () => [['wipe', true, false]], configurable: true });
    (win.Function.prototype as unknown as { call: unknown }).call = () => undefined;
    await context.registerTool({ name: 'wipe', annotations: { destructiveHint: true }, execute });
    expect(context.held[0]!.annotations.consequentialHint).toBe(true);
    expect(records()).toEqual([['wipe', false, true]]);
    expect(Reflect.set(win, TOOL_REGISTRATIONS_KEY, () => '[]')).toBe(false);
    expect(Reflect.defineProperty(win, TOOL_REGISTRATIONS_KEY, { value: () => '[]' })).toBe(false);
  });

  it('stops recording new names past its limit, and records nothing for another context', async () => {
    const { win, context, records } = hooked();
    for (let i = 0; i < MAX_RECORDED_NAMES + 2; i++) await context.registerTool({ name: `t${i}`, execute });
    expect(records()).toHaveLength(MAX_RECORDED_NAMES);
    const Other = (win as unknown as { ModelContext: new () => Context }).ModelContext;
    const other = new Other();
    await other.registerTool({ name: 'elsewhere', annotations: { readOnlyHint: true }, execute });
    expect(other.held).toHaveLength(1);
    expect(records().some(([name]) => name === 'elsewhere')).toBe(false);
  });
});
