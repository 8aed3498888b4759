import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { runTask, type Adapter, type Step, type Task, type ToolAnswer, type ToolCall } from '../e2e/tasks-plan';

/** A page whose state is already the expected one: the test is about the calls, not the page. */
const page = {
  waitForFunction: async () => undefined,
  evaluate: async () => true,
} as unknown as Page;

const task = (steps: Step[]): Task => ({
  id: 'rule',
  library: 'native',
  needs: [],
  page: '/rule',
  ready: 'true',
  steps,
  state: 'true',
  expected: true,
});

/** An adapter that answers each tool from a script and records the calls the runner made. */
function scripted(answers: Record<string, Array<string | ToolAnswer>>) {
  const calls: ToolCall[] = [];
  const adapter: Adapter = {
    label: 'scripted',
    open: async () => page,
    async call(call) {
      calls.push(call);
      const next = answers[call.tool]?.shift() ?? '';
      return typeof next === 'string' ? { text: next, isError: false } : next;
    },
    read: () => ({ tool: 'snapshot', args: {} }),
    find: (target) => ({ tool: 'find', args: { text: target.name } }),
    actsByTarget: true,
    act: (step, refs) => [{ tool: step.do, args: { ...refs } }],
    close: async () => undefined,
  };
  return { adapter, calls };
}

const opener: Step = { do: 'click', on: { role: 'combobox', name: 'Country' } };
const option: Step = { do: 'click', on: { role: 'option', name: 'France' } };

describe('the plan rule', () => {
  it('starts with one read and acts on what it showed, with no lookup', async () => {
    const { adapter, calls } = scripted({ snapshot: ['- combobox "Country" [ref=e1]'] });
    const run = await runTask(task([opener]), adapter, 'http://x');
    expect(calls).toEqual([
      { tool: 'snapshot', args: {} },
      { tool: 'click', args: { on: { ref: 'e1' } } },
    ]);
    expect(run).toMatchObject({ completed: true, calls: 2, lookups: 0 });
  });

  it('takes a target an action answer showed, and looks up one no answer showed', async () => {
    const { adapter, calls } = scripted({
      snapshot: ['- combobox "Country" [ref=e1]'],
      click: ['# changes: 1 added\n+ - option "France" [ref=e2]', ''],
    });
    await runTask(task([opener, option]), adapter, 'http://x');
    expect(calls.map((call) => call.tool)).toEqual(['snapshot', 'click', 'click']);
    expect(calls[2]!.args).toEqual({ on: { ref: 'e2' } });

    const late = scripted({
      snapshot: ['- combobox "Country" [ref=e1]'],
      click: ['# no changes since the previous snapshot', ''],
      find: ['# no matches', '- option "France" [ref=e2]'],
    });
    const run = await runTask(task([opener, option]), late.adapter, 'http://x');
    expect(late.calls.map((call) => call.tool)).toEqual(['snapshot', 'click', 'find', 'find', 'click']);
    expect(run).toMatchObject({ completed: true, calls: 5, lookups: 2 });
  });

  it('acts by role and name on a line without a ref, and says so unless the target is unmarked', async () => {
    const { adapter, calls } = scripted({ snapshot: ['- cell "Ashton Cox"\n- cell "London"'] });
    const step: Step = { do: 'click', on: { role: ['row', 'cell'], name: 'Ashton Cox', unmarked: true } };
    const run = await runTask(task([step, { do: 'click', on: { role: 'cell', name: 'London' } }]), adapter, 'x');
    expect(calls.slice(1).map((call) => call.args)).toEqual([
      { on: { target: { role: 'cell', name: 'Ashton Cox' } } },
      { on: { target: { role: 'cell', name: 'London' } } },
    ]);
    expect(run.withoutRef).toEqual(['cell "London"']);
  });

  it('counts a target seen only in a linked file, and gives up after the bounded lookups', async () => {
    const { adapter } = scripted({
      snapshot: ['- combobox "Country" [ref=e1]'],
      click: [{ text: 'clicked', isError: false, linked: ['- option "France" [ref=e2]'] }, ''],
    });
    const run = await runTask(task([opener, option]), adapter, 'x');
    expect(run).toMatchObject({ completed: true, seenOnlyLinked: 1, withLinked: run.chars + 26 });

    const never = scripted({ snapshot: [''] });
    const missed = await runTask(task([option]), never.adapter, 'x');
    expect(missed).toMatchObject({ completed: false, lookups: 4, failure: 'option "France" is not on the page' });
  });
});
