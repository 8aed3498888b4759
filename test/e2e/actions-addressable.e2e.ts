/**
 * Everything a person can click, an agent can address: elements made clickable by script (grid
 * cells, a cursor of their own, inline handlers, listeners the main-world record saw, a named
 * wrapper in the tab order) get refs, and a delegating container or body does not.
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
        /gridcell "PO-1003"/,
        /gridcell "1760"/,
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
      expect(snapshot).not.toMatch(/generic \[ref=[^\]]+\] \[clickable\]\n\s+- button "Alpha"/);
      expect(snapshot).toMatch(/^- button "Alpha" \[ref=\w+\]$/m);
      expect(snapshot).toMatch(/^- "Plain text"$/m);
    });

    it('acts on them, and their listeners run as before', async () => {
      await rig.call('click', { ref: refIn(snapshot, /gridcell "1760"/), double: true });
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
});
