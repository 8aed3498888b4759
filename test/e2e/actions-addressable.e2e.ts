/**
 * Everything a person can click, an agent can address: elements made clickable by script (grid
 * cells, a cursor of their own, inline handlers, listeners the main-world record saw, a named
 * wrapper in the tab order) get refs, and a delegating container or body does not; a control
 * covered by a part of itself is clicked where a person would click, a real cover still refused;
 * a hover waits for the menu its timer opens; an editor on an EditContext takes typed text.
 * Real Chromium, the built extension, calls through the broker's tunnel.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refIn, startActionRig, textOf, type ActionRig } from './actions-rig';

describe('addressing what a person can click', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    rig = await startActionRig();
  });
  afterAll(async () => rig?.close());

  const log = (page: Page) => page.evaluate(() => (window as unknown as { log: string[] }).log);

  describe('elements made clickable by script', () => {
    let page: Page;
    let snapshot: string;

    beforeAll(async () => {
      page = await rig.open('/addressable/signals.html');
      snapshot = textOf(await rig.call('snapshot'));
    });
    afterAll(async () => page?.close());

    it('gives refs to grid cells, cursors, inline handlers, own listeners and named wrappers', () => {
      for (const line of [
        // Grid cells, in a row printed on one line: each keeps its ref.
        /^ {2}- row: "PO-1003" \[\w+\] \| /m,
        /\| "1760" \[/,
        /listitem "Fix loading dock door"/,
        /generic "Prev"/,
        /generic "Next"/,
        /listitem "Reports"/,
        /listitem "Next Page"/,
        /button "right"/,
        /generic "Archive row"/,
      ])
        expect(() => refIn(snapshot, line), String(line)).not.toThrow();
    });

    it('gives none to a container that listens for its items, to body, nor to plain text', () => {
      expect(snapshot).toMatch(/^- grid "Orders"$/m);
      expect(snapshot).toMatch(/^- list$/m);
      expect(snapshot).not.toMatch(/generic \[[^\]]+\]\n\s+- button "Alpha"/);
      expect(snapshot).toMatch(/^- button "Alpha" \[\w+\]$/m);
      expect(snapshot).toMatch(/^- "Plain text"$/m);
    });

    it('acts on them, and their listeners run as before', async () => {
      await rig.call('click', { ref: refIn(snapshot, /\| "1760" \[/), double: true });
      await rig.call('click', { ref: refIn(snapshot, /generic "Next"/) });
      await rig.call('click', { ref: refIn(snapshot, /generic "Prev"/) });
      await rig.call('click', { ref: refIn(snapshot, /generic "Archive row"/) });
      expect((await log(page)).filter((entry) => entry !== 'body')).toEqual([
        'edit 1760',
        'next',
        'previous',
        'own own',
      ]);
    });

    it('keeps what it records from the page', async () => {
      const seen = await page.evaluate(() => {
        const own = document.getElementById('own')!;
        return {
          properties: Object.getOwnPropertyNames(own).length,
          attributes: own.getAttributeNames(),
          addEventListener: typeof EventTarget.prototype.addEventListener,
        };
      });
      expect(seen).toEqual({ properties: 0, attributes: ['id'], addEventListener: 'function' });
    });
  });

  describe('widgets', () => {
    let page: Page;
    let snapshot: string;

    beforeAll(async () => {
      page = await rig.open('/addressable/widgets.html');
      snapshot = textOf(await rig.call('snapshot'));
    });
    afterAll(async () => page?.close());

    it('clicks a control under a part of itself, saying so, and still refuses a real cover', async () => {
      const own = await rig.call('click', { ref: refIn(snapshot, /textbox "Department"/) });
      expect(own.isError, textOf(own)).toBeFalsy();
      expect(textOf(own)).toContain(
        'Clicked <input> "Department" where <div> "Sales", part of the same control, is on top of it',
      );
      const covered = await rig.call('click', { ref: refIn(snapshot, /button "Pay"/) });
      expect(covered.isError).toBe(true);
      expect(textOf(covered)).toMatch(
        /Refused to click <button> "Pay": it is covered: <p> "Spring promotion" is on top/,
      );
      expect(await log(page)).toEqual(['opened Department']);
    });

    it('waits for the menu a hover opens a moment later, and reports it', async () => {
      const hovered = textOf(await rig.call('hover', { ref: refIn(snapshot, /link "Reports"/) }));
      expect(hovered).toMatch(/\+ .*link "Monthly report"/);
    });

    it('types into an EditContext editor: text, Enter, Backspace and select-all reach it', async () => {
      const ref = refIn(snapshot, /textbox "Query editor"/);
      const typed = await rig.call('type', { ref, text: 'SELECT 1' });
      expect(typed.isError, textOf(typed)).toBeFalsy();
      await rig.call('press_key', { ref, key: 'Enter' });
      await rig.call('type', { ref, text: 'FROM t;', clear: false });
      await rig.call('press_key', { ref, key: 'Backspace' });
      const value = () =>
        page.evaluate(() => (window as unknown as { editor: { getValue(): string } }).editor.getValue());
      expect(await value()).toBe('SELECT 1\nFROM t');
      await rig.call('press_key', { ref, key: 'Control+a' });
      await rig.call('type', { ref, text: 'SELECT 2', clear: false });
      expect(await value()).toBe('SELECT 2');
    });
  });
});
