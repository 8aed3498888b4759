/**
 * "Show password" toggles in real Chromium: a password field that its page turns into a text
 * field — by the page's own button or by Tabwright clicking it — never shows its value in a
 * snapshot, a `find`, an action's diff or what typing into it reports.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refIn, startActionRig, textOf, type ActionRig } from './actions-rig';

const PASSWORD = 'correct-horse-battery';
const CODE = 'RC-7719-4402';

describe('secret fields behind a "Show password" toggle', () => {
  let rig: ActionRig;
  let page: Page;

  beforeAll(async () => {
    rig = await startActionRig();
  });
  afterAll(async () => rig?.close());

  const snapshot = async () => textOf(await rig.call('snapshot'));
  const neverShown = (text: string) => {
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(CODE);
  };

  beforeAll(async () => {
    page = await rig.open('/actions/show-password.html');
    // The user types their password and code; the agent is asked to help afterwards.
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByLabel('Recovery code').fill(CODE);
  });

  it('keeps the value out of the snapshot and find after the page itself shows the password', async () => {
    const before = await snapshot();
    expect(before).toMatch(/- textbox "Password" \[e\d+\]\n/);
    neverShown(before);

    await page.getByRole('button', { name: 'Show password' }).click();
    await page.getByRole('button', { name: 'Show code' }).click();
    expect(await page.locator('#password').getAttribute('type')).toBe('text');
    expect(await page.locator('#code').inputValue()).toBe(CODE);

    const after = await snapshot();
    expect(after).toMatch(/- textbox "Password" \[e\d+\]\n/);
    expect(after).toMatch(/- textbox "Recovery code" \[e\d+\]\n/);
    expect(after).toMatch(/- button "Show password" \[e\d+\] \[pressed\]/);
    neverShown(after);

    const textboxes = textOf(await rig.call('find', { role: 'textbox' }));
    expect(textboxes).toMatch(/^# 3 matching lines · /m);
    neverShown(textboxes);
    const searched = textOf(await rig.call('find', { text: 'horse' }));
    expect(searched).toContain('0 matching lines');
    expect(textOf(await rig.call('find', { text: '7719' }))).toContain('0 matching lines');
  });

  it('keeps it out of the diff when Tabwright clicks the toggle, both ways', async () => {
    // The page hides them again; the next snapshot sees two password fields.
    await page.getByRole('button', { name: 'Show password' }).click();
    await page.getByRole('button', { name: 'Show code' }).click();
    const hidden = await snapshot();
    for (const name of ['Show code', 'Show password']) {
      const shown = textOf(await rig.call('click', { ref: refIn(hidden, new RegExp(`button "${name}"`)) }));
      expect(shown).toMatch(new RegExp(`~ +- button "${name}" \\[e\\d+\\] \\[pressed\\]`));
      neverShown(shown);
    }
    expect(await page.locator('#code').getAttribute('type')).toBe('text');
    neverShown(await snapshot());
  });

  it('keeps what is typed into a shown field out of the result and its diff', async () => {
    const current = await snapshot();
    const typed = textOf(
      await rig.call('type', { ref: refIn(current, /textbox "Recovery code"/), text: 'RC-0000-1111' }),
    );
    expect(typed).toContain('Typed 12 characters (hidden) into <input> "Recovery code"');
    expect(typed).not.toContain('RC-0000-1111');
    expect(typed).not.toContain('0000-1111');
    neverShown(typed);
    expect(await page.locator('#code').inputValue()).toBe('RC-0000-1111');

    const filled = textOf(
      await rig.call('fill_form', {
        fields: [
          { ref: refIn(current, /textbox "User name"/), value: 'ada' },
          { ref: refIn(current, /textbox "Password"/), value: 'tr0ub4dor&3' },
        ],
      }),
    );
    expect(filled).toContain('<input> "Password" = 11 characters (hidden)');
    expect(filled).not.toContain('tr0ub4dor');
    expect(await page.locator('#password').inputValue()).toBe('tr0ub4dor&3');
    const after = await snapshot();
    expect(after).not.toContain('tr0ub4dor');
    expect(after).not.toContain('0000-1111');
  });

  it('keeps a field shown by the page between two snapshots secret, though no snapshot saw it as a password', async () => {
    await page.evaluate((value) => (window as unknown as { addPinField(v: string): void }).addPinField(value), '90210');
    await expect.poll(() => page.getByLabel('PIN').getAttribute('type')).toBe('text');
    const text = await snapshot();
    expect(text).toMatch(/- textbox "PIN" \[e\d+\]\n/);
    expect(text).not.toContain('90210');
  });
});
