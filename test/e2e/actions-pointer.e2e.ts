/**
 * Pointer actions through the real tunnel: clicks that must be refused (covered, disabled, moving,
 * hidden), hover menus drawn by script and by CSS, a page that never stops changing, scrolling,
 * and cancellation.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TIMING_META, type ActionTiming } from '../../src/contract/mcp';
import { refIn, startActionRig, textOf, type ActionRig } from './actions-rig';

describe('pointer actions', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    rig = await startActionRig();
  });
  afterAll(async () => rig?.close());

  it('clicks a button and answers with the action line and the diff', async () => {
    const page = await rig.open('/index.html');
    const snapshot = textOf(await rig.call('snapshot'));
    const result = textOf(await rig.call('click', { ref: refIn(snapshot, /button "Count"/) }));
    expect(result).toContain('Clicked <button> "Count"');
    // The one line that changed, and nothing unchanged around it.
    const changes = result.split('\n').filter((line) => /^[-+~] /.test(line));
    expect(changes).toEqual(['~ - status "1" (was: "0")']);
    expect(await page.locator('#clicks').textContent()).toBe('1');
    // Refs of unchanged elements stay valid: the same ref clicks again.
    await rig.call('click', { ref: refIn(snapshot, /button "Count"/) });
    expect(await page.locator('#clicks').textContent()).toBe('2');
  });

  describe('obstacles', () => {
    let page: Page;
    let snapshot: string;

    beforeAll(async () => {
      page = await rig.open('/actions/obstacles.html');
      snapshot = textOf(await rig.call('snapshot'));
    });

    it('refuses a click on a covered element, naming what covers it, and clicks nothing', async () => {
      const result = await rig.call('click', { ref: refIn(snapshot, /button "Buy now"/) });
      const text = textOf(result);
      expect(result.isError).toBe(true);
      expect(text).toContain('Refused to click <button> "Buy now"');
      expect(text).toContain('failed check: receives-events');
      expect(text).toMatch(/covered: <div> .* is on top of it/);
      expect(await page.locator('#bought').textContent()).toBe('0');
    });

    it('clicks it once the overlay is dismissed', async () => {
      const accepted = textOf(await rig.call('click', { ref: refIn(snapshot, /button "Accept cookies"/) }));
      expect(accepted).toMatch(/- dialog "Cookie consent"/);
      const bought = textOf(await rig.call('click', { ref: refIn(snapshot, /button "Buy now"/) }));
      expect(bought).toContain('Clicked <button> "Buy now"');
      expect(await page.locator('#bought').textContent()).toBe('1');
    });

    it('refuses disabled, moving and hidden elements with the failed check', async () => {
      const disabled = await rig.call('click', { ref: refIn(snapshot, /button "Unavailable"/) });
      expect(textOf(disabled)).toContain('failed check: enabled');
      const moving = await rig.call('click', { selector: '#moving' });
      expect(textOf(moving)).toContain('failed check: stable');
      expect(await page.evaluate(() => (window as unknown as { movingClicks: number }).movingClicks)).toBe(0);
      const hidden = await rig.call('click', { selector: 'button[style]' });
      expect(textOf(hidden)).toContain('failed check: visible');
      for (const result of [disabled, moving, hidden]) expect(result.isError).toBe(true);
    });

    it('clicks a button in a card that changes colour for ever: nothing in it moves', async () => {
      const result = await rig.call('click', { ref: refIn(snapshot, /button "Claim offer"/) });
      expect(textOf(result)).toContain('Clicked <button> "Claim offer"');
      expect(result.isError).toBeFalsy();
      expect(await page.locator('#claimed').textContent()).toBe('1');
    });

    it('refuses a stale ref and a selector that matches nothing', async () => {
      await page.reload();
      const stale = await rig.call('click', { ref: refIn(snapshot, /button "Buy now"/) });
      expect(stale.isError).toBe(true);
      expect(textOf(stale)).toMatch(/snapshot again/i);
      const missing = await rig.call('click', { selector: '#no-such-thing' });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain('No element matches');
    });
  });

  describe('hover menus', () => {
    let page: Page;
    let snapshot: string;

    beforeAll(async () => {
      page = await rig.open('/actions/hover.html');
      snapshot = textOf(await rig.call('snapshot'));
    });

    it('opens a menu drawn with CSS :hover and shows its items with refs', async () => {
      expect(snapshot).not.toContain('Laptops');
      const result = textOf(await rig.call('hover', { ref: refIn(snapshot, /link "Products"/) }));
      expect(result).toContain('Hovering over <a> "Products"');
      expect(result).toMatch(/\+ +- link "Laptops" \[e\d+\]/);
      const laptops = refIn(result, /link "Laptops"/);
      const clicked = textOf(await rig.call('click', { ref: laptops }));
      expect(clicked).toContain('Clicked <a> "Laptops"');
      expect(new URL(page.url()).hash).toBe('#laptops');
    });

    it('opens a menu driven by mouseenter, sending the pointer events a mouse would', async () => {
      const result = textOf(await rig.call('hover', { ref: refIn(snapshot, /link "Services"/) }));
      // A diff, or the whole page when that is the shorter read: either way Repairs shows with a ref.
      expect(result).toMatch(/^(\+ )? +- link "Repairs" \[e\d+\]/m);
      expect(await page.locator('#events').textContent()).toBe(
        'Pointer events: pointerover, pointerenter, mouseover, mouseenter, pointermove, mousemove',
      );
      // Moving elsewhere leaves the first menu: it closes again, and the tooltip opens.
      const moved = textOf(await rig.call('hover', { ref: refIn(snapshot, /button "Help"/) }));
      expect(await page.locator('#js-submenu').isHidden()).toBe(true);
      expect(moved).not.toMatch(/^(\+ |~ | {2})? *- link "Repairs"/m);
      expect(moved).toMatch(/tooltip "Opens the manual"/);
    });
  });

  it('waits for a region the action marked aria-busy, but not for one that was busy before', async () => {
    await rig.open('/actions/loading.html');
    const snapshot = textOf(await rig.call('snapshot'));
    const result = textOf(await rig.call('click', { ref: refIn(snapshot, /button "Load results"/) }));
    expect(result).toContain('Clicked <button> "Load results"');
    expect(result).toMatch(/\+ +- listitem "Second result"/);
    expect(result).not.toContain('kept changing');
  });

  it('types and clicks inside a frame through frame refs', async () => {
    const page = await rig.open('/actions/framed.html');
    await expect.poll(() => page.frames().length).toBe(2);
    await page.frames()[1]!.locator('#apply').waitFor();
    const snapshot = textOf(await rig.call('snapshot'));
    const coupon = refIn(snapshot, /textbox "Coupon"/);
    expect(coupon).toMatch(/^f\d+e\d+$/);
    await rig.call('type', { ref: coupon, text: 'SPRING' });
    const result = textOf(await rig.call('click', { ref: refIn(snapshot, /button "Apply coupon"/) }));
    expect(result).toContain('Clicked <button> "Apply coupon"');
    expect(result).toContain('Applied SPRING');
    expect(await page.frames()[1]!.locator('#state').textContent()).toBe('Applied SPRING');
  });

  it('stops waiting for a page that never stops changing at the cap, and still acts', async () => {
    const page = await rig.open('/actions/busy.html');
    const snapshot = textOf(await rig.call('snapshot'));
    const result = await rig.call('click', { ref: refIn(snapshot, /button "Press me"/) });
    const text = textOf(result);
    expect(result.isError).toBeFalsy();
    expect(text).toContain('Clicked <button> "Press me" (the page kept changing; stopped waiting)');
    // How long it waited is for the caller's tooling: in _meta, at the cap, never in the text.
    const timing = (result._meta as Record<string, unknown> | undefined)?.[TIMING_META] as ActionTiming | undefined;
    expect(timing?.settleReason).toBe('cap');
    expect(timing?.settleMs).toBeGreaterThanOrEqual(3_000);
    expect(text).not.toMatch(/\d s\b/);
    expect(text).toMatch(/~ - status "yes" \(was: "no"\)/);
    expect(await page.locator('#pressed').textContent()).toBe('yes');
  });

  describe('scrolling', () => {
    let page: Page;

    beforeAll(async () => {
      page = await rig.open('/actions/scroll.html');
      await rig.call('snapshot');
    });

    it('scrolls the page to the bottom and shows what loaded', async () => {
      const result = textOf(await rig.call('scroll', { to: 'bottom' }));
      expect(result).toMatch(/Scrolled the page to the bottom; now at the bottom/);
      expect(result).toMatch(/\+ +- listitem "Item 21"/);
      expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
    });

    it('scrolls by an amount, reports where it is, and says when it cannot go further', async () => {
      await rig.call('scroll', { to: 'top' });
      const down = textOf(await rig.call('scroll', { direction: 'down', amount: 300 }));
      expect(down).toMatch(/Scrolled the page down by 300 px; now at 300 of \d+ px/);
      const up = textOf(await rig.call('scroll', { direction: 'up', amount: 10_000 }));
      expect(up).toContain('now at the top');
      const again = textOf(await rig.call('scroll', { direction: 'up' }));
      expect(again).toContain('Did not scroll the page up');
    });

    it('scrolls the pane an element sits in, and scrolls an element into view', async () => {
      const pane = await rig.call('scroll', { selector: '#pane p', direction: 'down', amount: 100 });
      expect(textOf(pane)).toContain('Scrolled <div> "Pane" down by 100 px');
      expect(await page.locator('#pane').evaluate((element) => element.scrollTop)).toBe(100);
      const into = textOf(await rig.call('scroll', { selector: '#sentinel' }));
      expect(into).toContain('Scrolled <p> "Loading more…" into view');
    });

    it('scrolls the pane a clicked element is hidden in, though the element is inside the window', async () => {
      await page.locator('#pane').evaluate((pane) => {
        window.scrollTo(0, 0);
        pane.scrollTop = 0;
        pane.lastElementChild!.addEventListener('click', () => (pane.dataset.clicked = 'yes'));
      });
      const result = await rig.call('click', { selector: '#pane p:last-child' });
      expect(textOf(result)).toContain('Clicked <p> "Pane bottom"');
      expect(await page.locator('#pane').evaluate((pane) => [pane.dataset.clicked, pane.scrollTop > 0])).toEqual([
        'yes',
        true,
      ]);
    });
  });

  it('cancels a call that waits on a covered element: nothing is clicked afterwards', async () => {
    const page = await rig.open('/actions/obstacles.html');
    const snapshot = textOf(await rig.call('snapshot'));
    const controller = new AbortController();
    const pending = rig.call('click', { ref: refIn(snapshot, /button "Buy now"/) }, controller.signal);
    await page.waitForTimeout(400);
    controller.abort(new Error('the agent stopped'));
    await expect(pending).rejects.toThrow(/cancelled/i);
    // Were the page still polling, removing the overlay now would let the click through.
    await page.locator('#banner').evaluate((element) => ((element as HTMLElement).hidden = true));
    await page.waitForTimeout(2_500);
    expect(await page.locator('#bought').textContent()).toBe('0');
  });
});
