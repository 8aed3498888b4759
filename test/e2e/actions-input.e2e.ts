/**
 * Typing, forms and keys through the real tunnel, on a Preact app with controlled inputs and a
 * form with every input type.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refIn, startActionRig, textOf, type ActionRig } from './actions-rig';

describe('typing and forms', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    rig = await startActionRig({ preact: true });
  });
  afterAll(async () => rig?.close());

  describe('a Preact app with controlled inputs', () => {
    let page: Page;
    let snapshot: string;

    beforeAll(async () => {
      page = await rig.open('/actions/controlled.html');
      await page.getByRole('status').waitFor();
      snapshot = textOf(await rig.call('snapshot'));
    });

    it('types into a controlled input so the state follows, and shows the change as a diff', async () => {
      const result = await rig.call('type', { ref: refIn(snapshot, /textbox "Name"/), text: 'Ada Lovelace' });
      const text = textOf(result);
      expect(result.isError).toBeFalsy();
      expect(text).toContain('Typed "Ada Lovelace" into <input> "Name"');
      expect(text).toMatch(/~ +- status "Hello, Ada Lovelace! Code -/);
      expect(text).toMatch(/~ +- textbox "Name" \[e\d+\] \[value="Ada Lovelace"\]/);
      expect(text).not.toContain('# snapshot —');
      expect(await page.getByRole('status').textContent()).toContain('Hello, Ada Lovelace!');
      // The state, not only the DOM value: a re-render keeps the text.
      expect(await page.getByLabel('Name').inputValue()).toBe('Ada Lovelace');
    });

    it('replaces by default and appends with clear: false', async () => {
      const name = refIn(snapshot, /textbox "Name"/);
      await rig.call('type', { ref: name, text: 'Grace' });
      const appended = textOf(await rig.call('type', { ref: name, text: ' Hopper', clear: false }));
      expect(appended).toContain('Hello, Grace Hopper!');
      expect(await page.getByLabel('Name').inputValue()).toBe('Grace Hopper');
    });

    it('says what the field holds when the page transforms the input', async () => {
      const text = textOf(await rig.call('type', { ref: refIn(snapshot, /textbox "Code"/), text: 'ab-12 c' }));
      expect(text).toContain('the field now holds "AB12C"');
      expect(await page.getByRole('status').textContent()).toContain('Code AB12C');
    });

    it('types into a controlled textarea and picks an option in a controlled select', async () => {
      await rig.call('type', { ref: refIn(snapshot, /textbox "Bio"/), text: 'Line one\nLine two' });
      expect(await page.getByLabel('Bio').inputValue()).toBe('Line one\nLine two');
      const selected = textOf(
        await rig.call('select_option', { ref: refIn(snapshot, /combobox "Size"/), label: 'Large' }),
      );
      expect(selected).toContain('Selected "Large" in <select> "Size"');
      expect(selected).toContain('size l');
    });

    it('never shows what is typed into a password field, and submits the form', async () => {
      const secret = 'hunter2-very-secret';
      const result = textOf(
        await rig.call('fill_form', {
          fields: [
            { ref: refIn(snapshot, /checkbox "I agree"/), value: true },
            { ref: refIn(snapshot, /textbox "Secret"/), value: secret },
          ],
          submit: true,
        }),
      );
      expect(result).not.toContain(secret);
      expect(result).toContain('<input type=password> "Secret" = 19 characters (hidden)');
      expect(result).toContain('submitted the form');
      expect(result).toMatch(/\+ +- alert\n\+ +- "Saved: Grace Hopper \/ AB12C \/ l \/ agreed \/ 19 secret chars"/);
      const typed = textOf(await rig.call('type', { ref: refIn(snapshot, /textbox "Secret"/), text: secret }));
      expect(typed).toContain('Typed 19 characters (hidden) into <input type=password> "Secret"');
      expect(typed).not.toContain(secret);
    });
  });

  describe('a form with every input type', () => {
    let page: Page;
    let snapshot: string;
    const ref = (pattern: RegExp) => refIn(snapshot, pattern);

    beforeAll(async () => {
      page = await rig.open('/actions/form.html');
      snapshot = textOf(await rig.call('snapshot'));
    });

    it('fills every kind of field in one call and submits', async () => {
      const result = await rig.call('fill_form', {
        fields: [
          { ref: ref(/textbox "Text"/), value: 'plain' },
          { ref: ref(/textbox "Email"/), value: 'ada@example.org' },
          { ref: ref(/textbox "Password"/), value: 'pa55word' },
          { ref: ref(/spinbutton "Number"/), value: '42' },
          { ref: ref(/textbox "Phone"/), value: '+33 1 23 45' },
          { ref: ref(/textbox "Website"/), value: 'https://example.org' },
          { ref: ref(/searchbox "Search"/), value: 'query' },
          { selector: 'input[name=date]', value: '2024-05-31' },
          { selector: 'input[name=time]', value: '14:30' },
          { selector: 'input[name=datetime]', value: '2024-05-31T14:30' },
          { selector: 'input[name=month]', value: '2024-05' },
          { selector: 'input[name=week]', value: '2024-W22' },
          { selector: 'input[name=color]', value: '#1a2b3c' },
          { selector: 'input[name=range]', value: '8' },
          { ref: ref(/checkbox "Newsletter"/), value: 'yes' },
          { ref: ref(/radio "Pro"/), value: true },
          { ref: ref(/combobox "Country"/), value: 'Germany' },
          { ref: ref(/listbox "Toppings"/), value: ['cheese', 'Olives'] },
          { ref: ref(/textbox "Notes"/), value: 'multi\nline' },
          { ref: ref(/textbox "Comment"/), value: 'rich text' },
        ],
        submit: true,
      });
      const text = textOf(result);
      expect(result.isError, text).toBeFalsy();
      expect(text).toContain('Filled 20 fields');
      expect(text).not.toContain('pa55word');
      expect(text).toContain('submitted the form');
      const submitted = await page.locator('#result').textContent();
      for (const part of [
        'text=plain',
        'email=ada@example.org',
        'password(8)',
        'number=42',
        'tel=+33 1 23 45',
        'url=https://example.org',
        'search=query',
        'date=2024-05-31',
        'time=14:30',
        'datetime=2024-05-31T14:30',
        'month=2024-05',
        'week=2024-W22',
        'color=#1a2b3c',
        'range=8',
        'news=on',
        'plan=pro',
        'country=de',
        'toppings=cheese; toppings=olives',
        'notes=multi\nline',
        'comment=rich text',
      ]) {
        expect(submitted).toContain(part);
      }
      const events = await page.evaluate(
        () => (window as unknown as { fieldEvents: Record<string, number> }).fieldEvents,
      );
      for (const name of ['text', 'email', 'date', 'color', 'range', 'news', 'country', 'toppings', 'notes']) {
        expect(events[`${name}:input`], `${name} got input`).toBeGreaterThan(0);
        expect(events[`${name}:change`], `${name} got change`).toBeGreaterThan(0);
      }
    });

    it('refuses bad values before touching any field', async () => {
      await page.getByLabel('Text', { exact: true }).fill('keep me');
      const result = await rig.call('fill_form', {
        fields: [
          { ref: ref(/textbox "Text"/), value: 'changed' },
          { selector: 'input[name=date]', value: '31/05/2024' },
        ],
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('takes a value like 2024-05-31');
      expect(await page.getByLabel('Text', { exact: true }).inputValue()).toBe('keep me');
    });

    it('selects by value or label, and lists the options when none matches', async () => {
      const country = ref(/combobox "Country"/);
      expect(textOf(await rig.call('select_option', { ref: country, value: 'fr' }))).toContain('Selected "France"');
      const unknown = await rig.call('select_option', { ref: country, label: 'Spain' });
      expect(unknown.isError).toBe(true);
      expect(textOf(unknown)).toContain('"Germany" (value "de")');
      const disabled = await rig.call('select_option', { ref: country, value: 'jp' });
      expect(disabled.isError).toBe(true);
      expect(textOf(disabled)).toContain('disabled');
      expect(await page.locator('select[name=country]').inputValue()).toBe('fr');
    });

    it('refuses fields that cannot take text, naming the failed check', async () => {
      const readonly = await rig.call('type', { selector: 'input[name=fixed]', text: 'x' });
      expect(textOf(readonly)).toContain('failed check: editable');
      const disabled = await rig.call('type', { selector: 'input[name=off]', text: 'x' });
      expect(textOf(disabled)).toContain('failed check: enabled');
      const hidden = await rig.call('type', { selector: 'input[name=invisible]', text: 'x' });
      expect(textOf(hidden)).toContain('failed check: visible');
      const file = await rig.call('type', { selector: 'input[name=avatar]', text: '/etc/passwd' });
      expect(textOf(file)).toContain('file picker');
      const picked = await rig.call('click', { selector: 'input[name=avatar]' });
      expect(textOf(picked)).toContain('file picker');
      const dropDown = await rig.call('click', { ref: ref(/combobox "Country"/) });
      expect(textOf(dropDown)).toContain('use select_option');
      for (const result of [picked, dropDown]) expect(result.isError).toBe(true);
      for (const result of [readonly, disabled, hidden, file]) expect(result.isError).toBe(true);
      expect(await page.locator('input[name=fixed]').inputValue()).toBe('fixed');
    });

    it('presses keys with key, code and keyCode, and the page can cancel them', async () => {
      const field = refIn(snapshot, /textbox "Shortcut field"/);
      await rig.call('press_key', { ref: field, key: 'a' });
      await rig.call('press_key', { ref: field, key: 'Enter' });
      await rig.call('press_key', { ref: field, key: 'Shift+ArrowDown' });
      const cancelled = textOf(await rig.call('press_key', { ref: field, key: 'Control+x' }));
      expect(cancelled).toContain('the page handled the key');
      const log = await page.locator('#log li').allTextContents();
      expect(log).toEqual([
        'keydown key=a code=KeyA keyCode=65',
        'keydown key=Enter code=Enter keyCode=13',
        'keydown key=ArrowDown code=ArrowDown keyCode=40 mods=shiftKey',
        'keydown key=x code=KeyX keyCode=88 mods=ctrlKey',
      ]);
      expect(await page.locator('#keys').inputValue()).toBe('a');
    });

    it('moves focus with Tab and submits with Enter', async () => {
      const text = ref(/textbox "Text"/);
      const tabbed = textOf(await rig.call('press_key', { ref: text, key: 'Tab' }));
      expect(tabbed).toContain('focus moved to <input type=email> "Email"');
      expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).name)).toBe('email');
      await page.locator('#result').evaluate((element) => (element.textContent = ''));
      const entered = textOf(await rig.call('press_key', { key: 'Enter' }));
      expect(entered).toContain('Pressed Enter on <input type=email> "Email"; submitted the form');
      expect(await page.locator('#result').textContent()).toContain('Submitted:');
    });

    it('types into rich text (contenteditable)', async () => {
      const comment = ref(/textbox "Comment"/);
      await rig.call('type', { ref: comment, text: 'Hello' });
      const more = textOf(await rig.call('type', { ref: comment, text: ', world', clear: false }));
      expect(more).toContain('Typed ", world" into <div> "Comment"');
      expect(await page.locator('#comment').textContent()).toBe('Hello, world');
    });
  });
});
