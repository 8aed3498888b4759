/**
 * Every input type as a snapshot shows it and as type and press_key fill it, custom controls whose
 * input is hidden behind their label, and Shoelace's web components (the real library, bundled by
 * the test set-up) clicked, checked, chosen and typed into through their shadow roots.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refIn, startActionRig, textOf, type ActionRig } from './actions-rig';

/** The snapshot line of the first match, for assertions on its states. */
function lineOf(snapshot: string, pattern: RegExp): string {
  const line = snapshot.split('\n').find((candidate) => pattern.test(candidate));
  if (!line) throw new Error(`no line matches ${pattern} in:\n${snapshot}`);
  return line.trim();
}

describe('input types and web components', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    rig = await startActionRig({ shoelace: true });
  });
  afterAll(async () => rig?.close());

  describe('native inputs of every type', () => {
    let page: Page;
    let snapshot: string;
    const ref = (pattern: RegExp) => refIn(snapshot, pattern);
    const events = () =>
      page.evaluate(() => (window as unknown as { fieldEvents: Record<string, number> }).fieldEvents);
    const valueOf = (name: string) => page.locator(`[name=${name}]`).inputValue();

    beforeAll(async () => {
      page = await rig.open('/actions/inputs.html');
      await page.locator('[name=attachments]').setInputFiles([
        { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('twelve bytes') },
        { name: 'photo.png', mimeType: 'image/png', buffer: Buffer.alloc(2_048) },
      ]);
      snapshot = textOf(await rig.call('snapshot'));
    });

    it('shows each input with its role, name, value, format and bounds', () => {
      const lines: Array<[RegExp, RegExp]> = [
        [/"Birthday"/, /^- textbox "Birthday" \[e\d+\] \[format=YYYY-MM-DD\] \[min=2024-01-01\] \[max=2024-12-31\]$/],
        [/"Alarm"/, /^- textbox "Alarm" \[e\d+\] \[format=HH:MM or HH:MM:SS\] \[min=06:00\] \[max=22:00\]$/],
        [/"Meeting"/, /^- textbox "Meeting" \[e\d+\] \[format=YYYY-MM-DDTHH:MM\]$/],
        [/"Billing month"/, /^- textbox "Billing month" \[e\d+\] \[value="2024-02"\] \[format=YYYY-MM\]$/],
        [/"Sprint week"/, /^- textbox "Sprint week" \[e\d+\] \[format=YYYY-Www\]$/],
        [/"Theme colour"/, /^- button "Theme colour" \[e\d+\] \[value="#336699"\] \[format=#rrggbb\]$/],
        [/"Volume"/, /^- slider "Volume" \[e\d+\] \[value="4"\] \[min=0\] \[max=10\] \[step=2\]$/],
        [/"Brightness"/, /^- slider "Brightness" \[e\d+\] \[value="50"\] \[min=0\] \[max=100\]$/],
        [/"Guests"/, /^- spinbutton "Guests" \[e\d+\] \[value="2"\] \[min=1\] \[max=8\]$/],
        [/"Price"/, /^- spinbutton "Price" \[e\d+\] \[step=0\.5\]$/],
        [/"Find"/, /^- searchbox "Find" \[e\d+\] \[value="shoes"\]$/],
        [/"Email"/, /^- textbox "Email" \[e\d+\] \[value="ada@example\.org"\]$/],
        [/"Phone"/, /^- textbox "Phone" \[e\d+\]$/],
        [/"Homepage"/, /^- textbox "Homepage" \[e\d+\]$/],
        [
          /"Attachments"/,
          /^- button "Attachments" \[e\d+\] \[value="notes\.txt \(12 B\), photo\.png \(2\.0 kB\)"\] \[multiple\]$/,
        ],
        [/"Dark mode"/, /^- checkbox "Dark mode" \[e\d+\]$/],
        [/"Small"/, /^- radio "Small" \[e\d+\]$/],
        [/"Notify me"/, /^- checkbox "Notify me" \[e\d+\]$/],
        [/"Upload avatar"/, /^- button "Upload avatar" \[e\d+\]$/],
      ];
      for (const [find, expected] of lines) expect(lineOf(snapshot, find), snapshot).toMatch(expected);
      // A label that names its control is not printed again as text.
      expect(snapshot).not.toMatch(/- "Dark mode"/);
      expect(snapshot).not.toMatch(/- "Notify me"/);
    });

    it('types ISO dates, times, months, weeks and colours, with input and change events', async () => {
      const cases: Array<[RegExp, string, string]> = [
        [/textbox "Birthday"/, '2024-05-31', 'birthday'],
        [/textbox "Alarm"/, '07:45:30', 'alarm'],
        [/textbox "Meeting"/, '2024-05-31T14:30', 'meeting'],
        [/textbox "Billing month"/, '2024-06', 'billing'],
        [/textbox "Sprint week"/, '2024-W22', 'sprint'],
        [/button "Theme colour"/, '#1a2b3c', 'theme'],
      ];
      for (const [pattern, value, name] of cases) {
        const result = await rig.call('type', { ref: ref(pattern), text: value });
        expect(result.isError, textOf(result)).toBeFalsy();
        expect(await valueOf(name)).toBe(value);
        const counted = await events();
        expect(counted[`${name}:input`], `${name} input`).toBe(1);
        expect(counted[`${name}:change`], `${name} change`).toBe(1);
      }
      const after = textOf(await rig.call('snapshot'));
      expect(lineOf(after, /"Birthday"/)).toContain('[value="2024-05-31"]');
    });

    it('refuses a value not in ISO form or out of bounds, naming both, and changes nothing', async () => {
      const before = await events();
      const refusals: Array<[RegExp, string, string, string]> = [
        [/textbox "Birthday"/, '31/05/2024', 'birthday', 'takes a value like 2024-05-31 (YYYY-MM-DD)'],
        [/textbox "Birthday"/, '2024-02-30', 'birthday', 'is not in that format'],
        [/textbox "Birthday"/, '2025-01-01', 'birthday', 'between 2024-01-01 and 2024-12-31; "2025-01-01" is outside'],
        [
          /textbox "Alarm"/,
          '5:30 PM',
          'alarm',
          'takes a value like 14:30 (HH:MM or HH:MM:SS), between 06:00 and 22:00',
        ],
        [/textbox "Alarm"/, '23:15', 'alarm', 'is outside those bounds'],
        [/textbox "Sprint week"/, '2023-W53', 'sprint', 'takes a value like 2024-W22 (YYYY-Www)'],
        [/textbox "Billing month"/, '2024-13', 'billing', 'takes a value like 2024-05 (YYYY-MM)'],
        [/button "Theme colour"/, 'red', 'theme', 'takes a value like #1a2b3c (#rrggbb)'],
        [/slider "Volume"/, '12', 'volume', 'between 0 and 10; "12" is outside those bounds'],
      ];
      for (const [pattern, value, name, message] of refusals) {
        const kept = await valueOf(name);
        const result = await rig.call('type', { ref: ref(pattern), text: value });
        expect(result.isError, `${name} ${value}`).toBe(true);
        expect(textOf(result)).toContain(message);
        expect(textOf(result)).toContain('Nothing was changed.');
        expect(await valueOf(name)).toBe(kept);
      }
      expect(await events()).toEqual(before);
    });

    it('steps sliders and number fields with arrow, page and Home/End keys, within step and bounds', async () => {
      const volume = ref(/slider "Volume"/);
      const presses: Array<[string, string]> = [
        ['ArrowRight', '6'],
        ['ArrowUp', '8'],
        ['ArrowUp', '10'],
        ['ArrowUp', '10'],
        ['ArrowLeft', '8'],
        ['Home', '0'],
        ['ArrowDown', '0'],
        ['PageUp', '2'],
        ['End', '10'],
        ['PageDown', '8'],
      ];
      for (const [key, value] of presses) {
        const result = textOf(await rig.call('press_key', { ref: volume, key }));
        expect(result, key).toContain(`Pressed ${key} on <input type=range> "Volume"`);
        expect(await valueOf('volume'), key).toBe(value);
      }
      const counted = await events();
      // Eight of the ten presses moved the value; the two at an end did not.
      expect(counted['volume:input']).toBe(8);
      expect(counted['volume:change']).toBe(8);

      const brightness = ref(/slider "Brightness"/);
      await rig.call('press_key', { ref: brightness, key: 'PageUp' });
      expect(await valueOf('brightness')).toBe('60');

      const guests = ref(/spinbutton "Guests"/);
      for (const [key, value] of [
        ['ArrowUp', '3'],
        ['ArrowDown', '2'],
        ['ArrowDown', '1'],
        ['ArrowDown', '1'],
      ] as const) {
        await rig.call('press_key', { ref: guests, key });
        expect(await valueOf('guests'), key).toBe(value);
      }
      expect((await events())['guests:change']).toBe(3);
      const price = ref(/spinbutton "Price"/);
      const stepped = textOf(await rig.call('press_key', { ref: price, key: 'ArrowUp' }));
      expect(stepped).toContain('the value is now 0.5');
      await rig.call('press_key', { ref: price, key: 'ArrowUp' });
      expect(await valueOf('price')).toBe('1');
      const after = textOf(await rig.call('snapshot'));
      expect(lineOf(after, /"Volume"/)).toContain('[value="8"]');
    });

    it('clicks hidden custom checkboxes and radio buttons through their labels, and shows a hidden file input', async () => {
      const dark = await rig.call('click', { ref: ref(/checkbox "Dark mode"/) });
      expect(dark.isError, textOf(dark)).toBeFalsy();
      expect(textOf(dark)).toContain('Clicked <input type=checkbox> "Dark mode" (through its label)');
      expect(await page.locator('[name=dark]').isChecked()).toBe(true);
      const large = await rig.call('click', { ref: ref(/radio "Large"/) });
      expect(large.isError, textOf(large)).toBeFalsy();
      expect(textOf(large)).toContain('(through its label)');
      expect(await page.locator('#size-l').isChecked()).toBe(true);
      // The label's centre is on a link: the click goes to the label, not through the link.
      const terms = await rig.call('click', { ref: ref(/checkbox "Terms and conditions"/) });
      expect(terms.isError, textOf(terms)).toBeFalsy();
      expect(await page.locator('[name=terms]').isChecked()).toBe(true);
      expect(await page.evaluate(() => location.hash)).toBe('');
      // Not rendered at all: the label alone draws it.
      const notify = await rig.call('click', { ref: ref(/checkbox "Notify me"/) });
      expect(notify.isError, textOf(notify)).toBeFalsy();
      expect(await page.locator('#notify').isChecked()).toBe(true);
      expect((await events())['notify:change']).toBe(1);
      expect(textOf(await rig.call('snapshot'))).toMatch(/checkbox "Dark mode" \[e\d+\] \[checked\]/);
      const filled = await rig.call('fill_form', { fields: [{ ref: ref(/checkbox "Dark mode"/), value: false }] });
      expect(filled.isError, textOf(filled)).toBeFalsy();
      expect(await page.locator('[name=dark]').isChecked()).toBe(false);
      // The upload button is the hidden file input's label: the snapshot shows what it holds.
      await page
        .locator('#avatar')
        .setInputFiles({ name: 'me.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(1_500_000) });
      expect(textOf(await rig.call('snapshot'))).toMatch(
        /button "Upload avatar" \[e\d+\] \[value="me\.jpg \(1\.5 MB\)"\]/,
      );
    });
  });

  describe('Shoelace web components', () => {
    let page: Page;
    let snapshot: string;
    const ref = (pattern: RegExp) => refIn(snapshot, pattern);
    const log = () => page.locator('#log li').allTextContents();

    beforeAll(async () => {
      page = await rig.open('/actions/shoelace.html');
      await page.waitForFunction(() =>
        ['sl-button', 'sl-checkbox', 'sl-select', 'sl-input'].every((name) => customElements.get(name)),
      );
      await page
        .locator('sl-select')
        .evaluate((select) => (select as HTMLElement & { updateComplete: Promise<unknown> }).updateComplete);
      snapshot = textOf(await rig.call('snapshot'));
    });

    it('clicks a button inside the component’s shadow root', async () => {
      const result = await rig.call('click', { ref: ref(/button "Save draft"/) });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(await page.evaluate(() => (window as unknown as { clicks: Record<string, number> }).clicks.save)).toBe(1);
      expect(await log()).toContain('save clicked');
    });

    it('clicks a native button slotted into a component', async () => {
      const result = await rig.call('click', { ref: ref(/button "Native help"/) });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(await page.evaluate(() => (window as unknown as { clicks: Record<string, number> }).clicks.help)).toBe(1);
    });

    it('checks the checkbox', async () => {
      const result = await rig.call('click', { ref: ref(/checkbox "Remember me"/) });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(await page.locator('#remember').evaluate((box) => (box as HTMLInputElement).checked)).toBe(true);
      expect(await log()).toContain('remember true');
    });

    it('chooses an option in the select', async () => {
      const opened = await rig.call('click', { ref: ref(/combobox "Shirt size"/) });
      expect(opened.isError, textOf(opened)).toBeFalsy();
      await page.locator('#size[open]').waitFor();
      const open = textOf(await rig.call('snapshot'));
      const chosen = await rig.call('click', { ref: refIn(open, /option "Medium"/) });
      expect(chosen.isError, textOf(chosen)).toBeFalsy();
      expect(await page.locator('#size').evaluate((select) => (select as HTMLSelectElement).value)).toBe('m');
      expect(await log()).toContain('size m');
    });

    it('types into the input', async () => {
      const result = await rig.call('type', { ref: ref(/textbox "City"/), text: 'Lyon' });
      expect(result.isError, textOf(result)).toBeFalsy();
      expect(await page.locator('#city').evaluate((input) => (input as HTMLInputElement).value)).toBe('Lyon');
      expect(await log()).toContain('city Lyon');
    });

    it('still refuses a component with an overlay on top of it', async () => {
      const result = await rig.call('click', { ref: ref(/button "Delete everything"/) });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/covered: <div> "Please wait…" is on top of it/);
      expect(await page.evaluate(() => (window as unknown as { clicks: Record<string, number> }).clicks.delete)).toBe(
        0,
      );
    });
  });

  describe('the hit test in shadow trees', () => {
    it('refuses a button that its component’s own slotted text covers, and takes a hit that falls through to the host', async () => {
      const hits = await rig.open('/actions/shadow-hits.html');
      const shown = textOf(await rig.call('snapshot'));
      const covered = await rig.call('click', { ref: refIn(shown, /button "Buy now"/) });
      expect(covered.isError).toBe(true);
      expect(textOf(covered)).toContain('covered: <promo-card> "Sold out" is on top of it');
      const passed = await rig.call('click', { ref: refIn(shown, /button "Continue"/) });
      expect(passed.isError, textOf(passed)).toBeFalsy();
      expect(await hits.evaluate(() => (window as unknown as { clicks: Record<string, number> }).clicks)).toEqual({
        buy: 0,
        pass: 1,
      });
    });
  });
});
