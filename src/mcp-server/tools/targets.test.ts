/**
 * Every tool that takes an element by ref takes it by role and name too: through the gates with a
 * fake page, each is looked up as the ref it names, and that ref is what reaches the page.
 */
import { describe, expect, it } from 'vitest';
import type { PageCommand } from '../../page/protocol';
import { MASK } from '../gates/redact';
import { gatedServer, textOf } from './gated-server-fixture';

/** A board as a lookup sees it: the region has a ref only because a target named it. */
const BOARD = [
  '- region "To do"',
  '  - button "Write report" [e1]',
  '- region "Done" [e5]',
  '  - "Nothing here yet" [e6]',
  '- textbox "Password" [e7]',
  '- combobox "Size" [e8]',
];

const FILE = { name: 'a.txt', contentBase64: 'YQ==' };
const onePage = () => {
  const fixture = gatedServer();
  fixture.browser.lines = BOARD;
  return fixture;
};
const commandOf = (sent: Array<{ command: PageCommand }>, op: PageCommand['op']) =>
  sent.find((entry) => entry.command.op === op)?.command as Record<string, unknown> | undefined;

describe('elements named by role and name', () => {
  it('drags onto a region the snapshot prints without a ref, shown on the card as asked and as found', async () => {
    const { call, sent, asked, audit } = onePage();
    const result = await call('drag', {
      target: { role: 'button', name: 'Write report' },
      toTarget: { role: 'region', name: 'Done' },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(commandOf(sent, 'snapshot')).toMatchObject({
      targets: [
        { role: 'button', name: 'Write report' },
        { role: 'region', name: 'Done' },
      ],
    });
    expect(commandOf(sent, 'drag')).toMatchObject({ source: { ref: 'e1' }, to: { ref: 'e5' } });
    expect(asked[0]!.targets?.map((target) => target.target)).toEqual([
      'button "Write report" → e1',
      'region "Done" → e5',
    ]);
    expect(audit[0]!.targets).toEqual(['button "Write report" → e1', 'region "Done" → e5']);
  });

  it('fills a form whose fields are named by role and name, masking the password field’s value', async () => {
    const { call, sent, asked, browser } = onePage();
    browser.passwordFields.add('e7');
    const result = await call('fill_form', {
      fields: [
        { target: { role: 'textbox', name: 'Password' }, value: 'hunter2-secret' },
        { target: { role: 'combobox', name: 'Size' }, value: 'M' },
      ],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(commandOf(sent, 'fillForm')).toMatchObject({
      fields: [
        { target: { ref: 'e7' }, value: 'hunter2-secret' },
        { target: { ref: 'e8' }, value: 'M' },
      ],
    });
    expect(asked[0]!.args).toEqual({
      fields: [
        { target: { role: 'textbox', name: 'Password' }, value: MASK },
        { target: { role: 'combobox', name: 'Size' }, value: 'M' },
      ],
    });
  });

  it('reaches the page as a ref in every tool that takes an element', async () => {
    const cases: Array<[string, Record<string, unknown>, PageCommand['op']]> = [
      ['click', {}, 'click'],
      ['type', { text: 'x' }, 'type'],
      ['hover', {}, 'hover'],
      ['select_option', { label: 'M' }, 'selectOption'],
      ['press_key', { key: 'Enter' }, 'pressKey'],
      ['upload_file', { files: [FILE] }, 'upload'],
      ['scroll', {}, 'scroll'],
    ];
    for (const [tool, args, op] of cases) {
      const { call, sent } = onePage();
      const result = await call(tool, { ...args, target: { role: 'text', name: 'Nothing here yet' } });
      expect(result.isError, `${tool}: ${textOf(result)}`).toBeFalsy();
      expect(commandOf(sent, op), tool).toMatchObject({ target: { ref: 'e6' } });
    }
  });

  it('refuses a target that matches nothing before anything reaches the page, and suggests find', async () => {
    const { call, browser, asked } = onePage();
    const result = await call('click', { target: { role: 'region', name: 'Archive' } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/call find/);
    expect(asked).toEqual([]);
    expect(browser.effects).toEqual([]);
  });

  it('waits for an element by role and name in the page, without looking it up first', async () => {
    const { call, sent } = onePage();
    await call('wait_for', { target: { role: 'button', name: 'Undo' }, timeout: 100 });
    expect(commandOf(sent, 'waitFor')).toMatchObject({ target: { role: 'button', name: 'Undo' } });
    expect(sent.some((entry) => entry.command.op === 'snapshot' && 'targets' in entry.command)).toBe(false);
    const both = await call('wait_for', { target: { name: 'Undo' }, text: 'Undo' });
    expect(textOf(both)).toMatch(/exactly one of `text`, `target` or `selector`/);
  });
});
