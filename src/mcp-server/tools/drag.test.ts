import { describe, expect, it } from 'vitest';
import { gatedServer, textOf } from './gated-server-fixture';

describe('drag through the gates', () => {
  it('is a write: refused without act mode, nothing reaches the page', async () => {
    const { call, browser, audit } = gatedServer({ act: false });
    const result = await call('drag', { ref: 'e1', toRef: 'e2' });
    expect(result.isError).toBe(true);
    expect(audit[0]!.outcome).toBe('refused:act-mode');
    expect(browser.commands).toEqual([]);
  });

  it('names source and target on the card, from the page, then drags within their frame', async () => {
    const { call, sent, asked } = gatedServer();
    const result = await call('drag', { ref: 'e1', toSelector: '#done' });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(asked[0]!.targets).toEqual([
      { target: 'e1', element: { role: 'textbox', name: 'e1' } },
      { target: '#done', element: { role: 'textbox', name: '#done' } },
    ]);
    expect(sent.find((entry) => entry.command.op === 'drag')?.command).toMatchObject({
      source: { ref: 'e1' },
      to: { selector: '#done' },
    });
  });

  it('takes how to answer a dialog the drop opens, shown on the card', async () => {
    const { call, asked } = gatedServer();
    const result = await call('drag', { ref: 'e1', toRef: 'e2', dialog: { accept: true } });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(asked[0]!.args).toMatchObject({ ref: 'e1', toRef: 'e2', dialog: { accept: true } });
  });

  it('asks where to drop, and refuses a drop into another frame', async () => {
    const { call, browser } = gatedServer();
    expect(textOf(await call('drag', { ref: 'e1' }))).toMatch(/pass `toRef`/);
    const across = await call('drag', { ref: 'e1', toRef: 'f3e2' });
    expect(across.isError).toBe(true);
    expect(textOf(across)).toMatch(/different frames/);
    expect(browser.effects).toEqual([]);
  });
});
