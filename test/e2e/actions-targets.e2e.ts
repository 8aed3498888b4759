/**
 * Acting on what a snapshot printed, by role and name: lines without a ref (a dnd-kit column, a
 * run of text), several matches and `nth`, elements in open shadow roots (Shoelace) and in child
 * frames — never in one the gates refuse — and a page that re-renders while the user decides.
 * Real Chromium, the built extension, calls through the broker's tunnel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  buildFixtureBundle,
  serveFile,
  serveShoelaceAssets,
  startActionRig,
  textOf,
  type ActionRig,
} from './actions-rig';
import { allowSite } from './harness';

const ORDERS = { role: 'button', name: 'Archive' };

describe('acting on elements named by role and name', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    const [board, shoelace] = await Promise.all([
      buildFixtureBundle('test/fixtures/targets/board.tsx', 'board'),
      buildFixtureBundle('test/fixtures/tasks/shoelace.ts', 'shoelace'),
    ]);
    rig = await startActionRig({
      routes: [
        serveFile('/targets/build/board.js', board),
        serveFile('/tasks/build/shoelace/shoelace.js', shoelace),
        serveShoelaceAssets(),
      ],
    });
  });
  afterAll(async () => rig?.close());

  async function openBoard(): Promise<Page> {
    const page = await rig.open('/targets/board.html');
    await page.waitForFunction(() => 'app' in window);
    return page;
  }

  const app = (page: Page) =>
    page.evaluate(() => {
      const { columns, archived, page: shown, draft } = (window as unknown as { app: Record<string, unknown> }).app;
      return { columns, archived, page: shown, draft } as {
        columns: Record<string, string[]>;
        archived: string[];
        page: number;
        draft: { title: string; column: string; urgent: boolean };
      };
    });

  /** Starts a write and waits for its card, armed; the test answers it. */
  async function cardFor(tool: string, args: Record<string, unknown>) {
    const pending = rig.start(tool, args);
    const card = rig.panel.locator('section.confirmation').last();
    await card.waitFor({ timeout: 30_000 });
    await expect.poll(() => card.getAttribute('data-armed')).toBe('true');
    return { pending, card };
  }

  // First: "Allow for this site" in later tests would let a click through without a card.
  it('acts on the element the card showed, even when a new match comes first meanwhile', async () => {
    const page = await openBoard();
    const { pending: chosen, card: shown } = await cardFor('click', { target: { ...ORDERS, nth: 1 } });
    const acts = await shown.locator('.targets li').innerText();
    expect(acts).toMatch(/^button "Archive" nth=1 → e\d+ button "Archive"$/);
    await page.evaluate(() => (window as unknown as { app: { addOrder(id: string): void } }).app.addOrder('999'));
    await expect.poll(() => page.locator('tbody tr').count()).toBe(4);
    await shown.getByRole('button', { name: 'Allow once' }).click();
    const result = await chosen;
    expect(result.isError, textOf(result)).toBeFalsy();
    // The row that was first when the user approved, not the one that is first now.
    expect((await app(page)).archived).toEqual(['1002']);
    await page.close();
  });

  it('refuses after approval when the page re-rendered the element meanwhile, and nothing acts', async () => {
    const page = await openBoard();
    const { pending, card } = await cardFor('click', { target: { ...ORDERS, nth: 2 } });
    await page.evaluate(() => (window as unknown as { app: { rerender(): void } }).app.rerender());
    await card.getByRole('button', { name: 'Allow once' }).click();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/stale.*call snapshot again/i);
    expect((await app(page)).archived).toEqual([]);
    await page.close();
  });

  it('refuses several matches without nth, listing them; nth picks one in snapshot order', async () => {
    const page = await openBoard();
    const several = await rig.call('click', { target: ORDERS });
    expect(several.isError).toBe(true);
    const text = textOf(several);
    expect(text).toMatch(/3 elements on the page are printed as button "Archive": pass `nth` \(1 to 3/);
    expect(text.match(/^\d\. button "Archive" \[e\d+\]/gm)).toHaveLength(3);
    expect((await app(page)).archived).toEqual([]);
    const second = await rig.call('click', { target: { ...ORDERS, nth: 2 } });
    expect(second.isError, textOf(second)).toBeFalsy();
    expect((await app(page)).archived).toEqual(['1003']);
    const waited = await rig.call('wait_for', { target: { role: 'status', name: 'Archived 1003' } });
    expect(textOf(waited)).toMatch(/appeared/);
    const past = await rig.call('click', { target: { ...ORDERS, nth: 4 } });
    expect(textOf(past)).toMatch(/nth=4 is past the 3 elements/);
    await page.close();
  });

  it('drags a card onto a column the snapshot prints without a ref', async () => {
    const page = await openBoard();
    const snapshot = textOf(await rig.call('snapshot'));
    expect(snapshot).toMatch(/^ {2}- region "Done"$/m);
    const result = await rig.call('drag', {
      target: { role: 'button', name: 'Write report' },
      toTarget: { role: 'region', name: 'Done' },
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    await expect
      .poll(async () => (await app(page)).columns)
      .toEqual({
        'To do': ['Call supplier'],
        Doing: [],
        Done: ['Book venue', 'Write report'],
      });
    await page.close();
  });

  it('clicks a run of text, and refuses what is hidden or not there, suggesting find', async () => {
    const page = await openBoard();
    expect(textOf(await rig.call('snapshot'))).toMatch(/^ {2}- "Next"$/m);
    const next = await rig.call('click', { target: { role: 'text', name: 'Next' } });
    expect(next.isError, textOf(next)).toBeFalsy();
    expect((await app(page)).page).toBe(2);
    for (const target of [
      { role: 'button', name: 'Restore' },
      { role: 'text', name: 'Nex' },
    ]) {
      const refused = await rig.call('click', { target });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toMatch(/No element on the page is printed as .*call find/);
    }
    expect((await app(page)).page).toBe(2);
    await page.close();
  });

  it('fills a form whose fields are named by role and name', async () => {
    const page = await openBoard();
    const result = await rig.call('fill_form', {
      fields: [
        { target: { role: 'textbox', name: 'Title' }, value: 'Print badges' },
        { target: { role: 'combobox', name: 'Column' }, value: 'Doing' },
        { target: { role: 'checkbox', name: 'Urgent' }, value: true },
      ],
    });
    expect(result.isError, textOf(result)).toBeFalsy();
    expect((await app(page)).draft).toEqual({ title: 'Print badges', column: 'Doing', urgent: true });
    await page.close();
  });

  it('reaches elements inside open shadow roots of Shoelace components', async () => {
    const page = await rig.open('/tasks/shoelace.html');
    await page.waitForFunction(() => customElements.get('sl-button') && customElements.get('sl-input'));
    const typed = await rig.call('type', { target: { role: 'textbox', name: 'City' }, text: 'Lyon' });
    expect(typed.isError, textOf(typed)).toBeFalsy();
    expect(await page.evaluate(() => (document.getElementById('city') as HTMLInputElement).value)).toBe('Lyon');
    const placed = await rig.call('click', { target: { role: 'button', name: 'Place order' } });
    expect(placed.isError, textOf(placed)).toBeFalsy();
    expect(await page.evaluate(() => (window as unknown as { tasks: { orders: number } }).tasks.orders)).toBe(1);
    await page.close();
  });

  it('finds matches in allowed frames only, in snapshot order, and acts in a cross-origin frame once allowed', async () => {
    const page = await rig.open('/targets/frames.html');
    await page.frameLocator('#cross').locator('#open').waitFor();
    const open = { role: 'button', name: 'Open' };
    const refused = await rig.call('click', { target: open });
    const listed = textOf(refused);
    // The top page's button and the same-origin frame's; the frame on a site not allowed adds none.
    expect(listed).toMatch(/2 elements on the page are printed as button "Open"/);
    expect(listed).toMatch(/^1\. button "Open" \[e\d+\]$/m);
    expect(listed).toMatch(/^2\. button "Open" \[f\d+e\d+\] · in iframe "Same origin"$/m);
    expect(listed).not.toMatch(/^3\./m);
    expect(listed).not.toContain('Cross origin');
    // What only the refused frame holds is not found at all.
    const elsewhere = await rig.call('click', { target: { role: 'heading', name: 'Room cross' } });
    expect(textOf(elsewhere)).toMatch(/No element on the page is printed as heading "Room cross"/);
    expect(await page.frameLocator('#cross').locator('#log').textContent()).toBe('nothing');
    const inFrame = await rig.call('click', { target: { ...open, nth: 2 } });
    expect(inFrame.isError, textOf(inFrame)).toBeFalsy();
    await expect.poll(() => page.frameLocator('#same').locator('#log').textContent()).toBe('opened in same');
    expect(await page.locator('#log').textContent()).toBe('nothing');

    await rig.panel.getByRole('button', { name: 'Settings' }).click();
    await allowSite(rig.panel, rig.fixtures.other);
    await rig.panel.getByRole('button', { name: 'Settings' }).click();
    const cross = await rig.call('click', { target: { ...open, nth: 3 } });
    expect(cross.isError, textOf(cross)).toBeFalsy();
    await expect.poll(() => page.frameLocator('#cross').locator('#log').textContent()).toBe('opened in cross');
    await page.close();
  });
});
