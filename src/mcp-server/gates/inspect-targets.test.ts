import { describe, expect, it } from 'vitest';
import type { PagePort } from '../browser-port';
import type { PageCommand } from '../../page/protocol';
import { elementTargets, inspectTargets } from './inspect-targets';

/** A page whose frames know a few elements by ref or selector; the rest are not found. */
function page(known: Record<string, { role: string; name: string; secret?: boolean }>) {
  const queries: Array<{ frameId: number | undefined; targets: string[] }> = [];
  const port: PagePort = {
    async run(_tabId, command: PageCommand, options) {
      if (command.op !== 'inspectTargets') throw new Error(`unexpected ${command.op}`);
      const keys = command.targets.map((t) => ('ref' in t ? t.ref : t.selector));
      queries.push({ frameId: options?.frameId, targets: keys });
      return {
        targets: keys.map((key) => {
          const element = known[key];
          return element
            ? { found: true, secret: !!element.secret, role: element.role, name: element.name }
            : { found: false };
        }),
      } as never;
    },
    async readableFrames() {
      return [];
    },
    async frames() {
      return [];
    },
  };
  return { port, queries };
}

const signal = new AbortController().signal;

describe('inspectTargets', () => {
  it('lists each element target once, refs and selectors, nested ones included', () => {
    expect(
      elementTargets({
        fields: [
          { ref: 'e1', value: 'a' },
          { selector: '#pw', value: 'b' },
          { ref: 'e1', value: 'c' },
        ],
        ref: 'f3e2',
      }),
    ).toEqual([{ ref: 'f3e2' }, { ref: 'e1' }, { selector: '#pw' }]);
  });

  it('describes every target in one query per frame and says which are secret', async () => {
    const { port, queries } = page({
      e1: { role: 'textbox', name: 'User' },
      '#pw': { role: 'textbox', name: 'Password', secret: true },
      f3e2: { role: 'button', name: 'Sign in' },
    });
    const args = {
      fields: [
        { ref: 'e1', value: 'ada' },
        { selector: '#pw', value: 'hunter2' },
        { ref: 'e9', value: 'x' },
      ],
      then: { ref: 'f3e2' },
    };
    const report = await inspectTargets(port, 1, args, [], true, signal);
    expect(queries).toEqual([
      { frameId: 0, targets: ['e1', '#pw', 'e9'] },
      { frameId: 3, targets: ['f3e2'] },
    ]);
    expect([...report.secret]).toEqual(['#pw']);
    expect(report.described).toEqual([
      { target: 'e1', element: { role: 'textbox', name: 'User' } },
      { target: '#pw', element: { role: 'textbox', name: 'Password' } },
      { target: 'e9' },
      { target: 'f3e2', element: { role: 'button', name: 'Sign in' } },
    ]);
  });

  it('asks only about targets that take a value when nobody will be asked, and not at all without one', async () => {
    const { port, queries } = page({ e1: { role: 'textbox', name: 'PIN', secret: true } });
    const typed = await inspectTargets(port, 1, { ref: 'e1', text: '1234' }, [{ ref: 'e1' }], false, signal);
    expect([...typed.secret]).toEqual(['e1']);
    expect(typed.described).toEqual([]);
    await inspectTargets(port, 1, { ref: 'e2' }, [], false, signal);
    expect(queries).toHaveLength(1);
  });
});
