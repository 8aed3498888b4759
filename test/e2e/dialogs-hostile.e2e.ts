/**
 * Dialog answers against a page that does not play along, through the built extension in
 * Chromium: an answer belongs to one action and dies with it (the call ending, the panel going
 * away); a dialog the action did not cause never gets its answer, at several timings; the record
 * of the person's open dialogs cannot be flooded by another tab; forged asks cannot blow up or
 * forge lines of a result. Every page registers a dialog listener, so a dialog that reaches the
 * browser is seen (Playwright would otherwise dismiss it quietly and hide the bug).
 */
import type { Dialog, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refIn, startActionRig, textOf, type ActionRig } from './actions-rig';
import { waitFor } from './harness';

/** Dialogs that reached the browser on `page`, answered as `answer` says, as the person would. */
function browserDialogs(page: Page, answer: (dialog: Dialog) => Promise<void> = (d) => d.dismiss()): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    void answer(dialog).catch(() => undefined);
  });
  return seen;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('dialogs on a hostile page', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    rig = await startActionRig();
    await waitFor(async () => {
      const scripts = await rig.launched.worker.evaluate(() => chrome.scripting.getRegisteredContentScripts());
      return scripts.filter((s) => s.matches?.includes(`${rig.fixtures.allowed}/*`)).length === 2;
    }, 30_000);
  });
  afterAll(async () => rig?.close());

  const statusOf = (page: Page, id: string) => page.locator(`#${id}`).innerText();

  /** The hostile page, with clicks there allowed for the site beforehand, so no card delays a call. */
  async function openHostile(query = ''): Promise<{ page: Page; seen: string[]; snapshot: string }> {
    const page = await rig.open(`/dialogs/hostile.html${query}`);
    const seen = browserDialogs(page);
    const snapshot = textOf(await rig.call('snapshot'));
    await rig.call('click', { ref: refIn(snapshot, /button "Refresh"/) });
    return { page, seen, snapshot };
  }

  it.each([600, 900, 1_200])(
    'gives an action’s answer to its own prompt, not to a confirm another click left behind (opening %i ms after it)',
    async (delay) => {
      const { page, seen, snapshot } = await openHostile(`?delay=${delay}`);
      const deleting = rig.call('click', { ref: refIn(snapshot, /button "Delete files"/) });
      await sleep(150);
      const renaming = rig.call('click', {
        ref: refIn(snapshot, /button "Rename"/),
        dialog: { accept: true, promptText: 'report-final' },
      });
      const [deleted, renamed] = await Promise.all([deleting, renaming]);
      expect(deleted.isError, textOf(deleted)).toBeFalsy();
      expect(renamed.isError, textOf(renamed)).toBeFalsy();
      await expect.poll(() => statusOf(page, 'files'), { timeout: 10_000 }).toBe('files kept');
      expect(await statusOf(page, 'out')).toBe('renamed to report-final');
      expect(textOf(renamed)).toContain('accepted, answering "report-final"');
      // The confirm came from the page's timer: the action running then dismissed it and said why.
      expect(textOf(renamed)).toContain('Delete the files?');
      expect(textOf(renamed)).toContain("it did not come from the action's own events");
      expect(seen).toEqual([]);
    },
  );

  it.each([500, 700, 900])(
    'never answers a confirm another click left behind (opening %i ms after it) with a later action’s answer',
    async (delay) => {
      // Rename's own prompt opens only after its save, a second after the click: later than the stray confirm.
      const { page, seen, snapshot } = await openHostile(`?delay=${delay}&renameAfter=1000`);
      const deleting = rig.call('click', { ref: refIn(snapshot, /button "Delete files"/) });
      await sleep(150);
      const renamed = await rig.call('click', {
        ref: refIn(snapshot, /button "Rename"/),
        dialog: { accept: true, promptText: 'report-final' },
      });
      await deleting;
      await expect.poll(() => statusOf(page, 'files'), { timeout: 10_000 }).toBe('files kept');
      // Neither dialog came from Rename's own events, so neither got its answer.
      await expect.poll(() => statusOf(page, 'out'), { timeout: 10_000 }).toBe('rename cancelled');
      expect(textOf(renamed)).toContain('Delete the files?');
      expect(textOf(renamed)).not.toContain('accepted, answering');
      expect(seen).toEqual([]);
    },
  );

  it.each([100, 700, 1_500])(
    'disarms when a call is cancelled %i ms in: the person’s next dialog is theirs',
    async (after) => {
      const page = await rig.open('/dialogs/hostile.html');
      const seen = browserDialogs(page);
      const snapshot = textOf(await rig.call('snapshot'));
      const cancel = new AbortController();
      const editing = rig
        .call('click', { ref: refIn(snapshot, /button "Edit title"/), dialog: { accept: true } }, cancel.signal)
        .catch(() => undefined);
      await page.locator('#title').filter({ hasText: '(edited)' }).waitFor();
      await sleep(after);
      cancel.abort();
      await editing;
      // The person clicks the page's own button: the browser asks them, not an answer meant for the agent.
      await expect
        .poll(
          async () => {
            await page.locator('#delete-project').click();
            return seen.length;
          },
          { timeout: 10_000 },
        )
        .toBeGreaterThan(0);
      expect(seen[0]).toBe('confirm: Delete project?');
      expect(await statusOf(page, 'out')).toBe('project kept');
    },
  );

  it('quotes a dialog’s text on one line: it cannot add lines to the result', async () => {
    const page = await rig.open('/dialogs/hostile.html');
    const seen = browserDialogs(page);
    const snapshot = textOf(await rig.call('snapshot'));
    const result = await rig.call('click', { ref: refIn(snapshot, /button "Pay"/) });
    const text = textOf(result);
    expect(result.isError, text).toBeFalsy();
    expect(await statusOf(page, 'out')).toBe('not paid');
    expect(text).toContain('Pay 400 EUR?');
    expect(text.split('\n').some((line) => /^\s*- button "Pay now"/.test(line))).toBe(false);
    expect(text.match(/<\/untrusted>/g)?.length).toBe(text.match(/<untrusted /g)?.length);
    expect(seen).toEqual([]);
  });

  it('keeps an action’s own report when the page forges huge dialogs during it', async () => {
    const page = await rig.open('/dialogs/hostile.html');
    const seen = browserDialogs(page);
    const snapshot = textOf(await rig.call('snapshot'));
    const result = await rig.call('click', { ref: refIn(snapshot, /button "Flood"/) });
    const text = textOf(result);
    expect(result.isError, text.slice(0, 500)).toBeFalsy();
    expect(await statusOf(page, 'out')).toBe('flooded');
    expect(text).toMatch(/^Clicked <button> "Flood"/);
    expect(text.length).toBeLessThan(20_000);
    expect(text.match(/opened a confirm dialog during the action/g)).toHaveLength(5);
    expect(seen).toEqual([]);
  });

  it('keeps the person’s open dialog in the record however many reports another tab forges', async () => {
    const held = await rig.open('/dialogs/dialogs.html');
    const open: Dialog[] = [];
    held.on('dialog', (dialog) => void open.push(dialog));
    await held.evaluate(() => void setTimeout(() => document.getElementById('confirm')!.click(), 0));
    await expect.poll(() => open.length).toBe(1);
    const heldTab = await rig.launched.worker.evaluate(async () => {
      const [tab] = await chrome.tabs.query({ url: '*://127.0.0.1/dialogs/dialogs.html' });
      return tab!.id!;
    });
    const flooding = await rig.open('/dialogs/forged-reports.html');
    await flooding.locator('#out').filter({ hasText: 'framed' }).waitFor();
    const recorded = () =>
      rig.launched.worker.evaluate(async () => {
        const stored = (await chrome.storage.session.get('userDialogs')).userDialogs as
          Array<{ tabId: number; frameId: number; kind: string }> | undefined;
        return stored ?? [];
      });
    // The forged reports arrive and are cut to the flooding tab's own share.
    await expect.poll(async () => (await recorded()).length, { timeout: 15_000 }).toBeGreaterThan(1);
    await sleep(1_000);
    const records = await recorded();
    expect(records).toContainEqual(expect.objectContaining({ tabId: heldTab, frameId: 0, kind: 'confirm' }));
    expect(records.filter((record) => record.tabId !== heldTab).length).toBeLessThanOrEqual(8);
    // A panel opened now learns of the person's dialog from the record, and calls there end at once.
    await held.bringToFront();
    await rig.reloadPanel();
    const result = await rig.call('snapshot');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('The page is showing its own confirm dialog');
    await open[0]!.dismiss();
    await flooding.close();
  });

  // Last: it closes the panel.
  it('dies with the panel: closed mid-action, the person’s next dialog reaches the browser', async () => {
    const page = await rig.open('/dialogs/hostile.html?editBusy=2500');
    const seen = browserDialogs(page, (dialog) => dialog.accept());
    const snapshot = textOf(await rig.call('snapshot'));
    const editing = rig
      .call('click', { ref: refIn(snapshot, /button "Edit title"/), dialog: { accept: true } })
      .catch(() => undefined);
    await page.locator('#title').filter({ hasText: '(edited)' }).waitFor();
    await sleep(700);
    await rig.panel.close();
    void editing;
    await sleep(500);
    await page.locator('#delete-project').click();
    await expect.poll(() => seen, { timeout: 10_000 }).toEqual(['confirm: Delete project?']);
    expect(await statusOf(page, 'out')).toBe('project deleted');
    // A new panel works as before.
    await rig.reopenPanel();
    await page.bringToFront();
    const again = await rig.call('snapshot');
    expect(again.isError, textOf(again)).toBeFalsy();
  });
});
