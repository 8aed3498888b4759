/**
 * JavaScript dialogs and "Leave site?" prompts through the built extension in Chromium: answers
 * given up front, dialogs dismissed and reported when none was given, a frame the gates refuse
 * never quoted, the user's own dialogs left to the browser, and leaving a page that asks refused
 * unless told to accept. Every page fails the test if a dialog reaches the browser when it should
 * not (Playwright would otherwise dismiss it quietly and hide the bug).
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refIn, startActionRig, textOf, type ActionRig } from './actions-rig';
import { waitFor } from './harness';

const BLOCKED_PATH = '127.0.0.1/dialogs/blocked';

/** Dialogs that reached the browser on `page`, dismissed as they come. */
function browserDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  return seen;
}

async function blockPath(panel: Page, rule: string): Promise<void> {
  await panel.getByRole('button', { name: 'Settings', exact: true }).click();
  await panel.getByRole('textbox', { name: 'Site to block' }).fill(rule);
  await panel.getByRole('button', { name: 'Block site' }).click();
  await panel.getByRole('list', { name: 'Added by you' }).getByText(rule, { exact: true }).waitFor();
  await panel.getByRole('button', { name: 'Settings', exact: true }).click();
}

describe('dialogs', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    rig = await startActionRig();
    // The allowed site gets the dialog scripts once the worker has registered them.
    await waitFor(async () => {
      const scripts = await rig.launched.worker.evaluate(() => chrome.scripting.getRegisteredContentScripts());
      return scripts.filter((s) => s.matches?.includes(`${rig.fixtures.allowed}/*`)).length === 2;
    }, 30_000);
    await blockPath(rig.panel, BLOCKED_PATH);
  });
  afterAll(async () => rig?.close());

  async function openDialogs(): Promise<{ page: Page; seen: string[]; snapshot: string }> {
    const page = await rig.open('/dialogs/dialogs.html');
    const seen = browserDialogs(page);
    const snapshot = textOf(await rig.call('snapshot'));
    return { page, seen, snapshot };
  }
  const out = (page: Page) => page.locator('#out').innerText();

  it('answers confirm, prompt and alert as the call said, up front', async () => {
    const { page, seen, snapshot } = await openDialogs();

    const confirmed = await rig.call('click', { ref: refIn(snapshot, /button "Delete"/), dialog: { accept: true } });
    const confirmedText = textOf(confirmed);
    expect(confirmed.isError, confirmedText).toBeFalsy();
    expect(await out(page)).toBe('deleted');
    expect(confirmedText).toContain(
      'The page opened a confirm dialog during the action; it was answered as the call said: accepted (OK)',
    );
    expect(confirmedText).toMatch(/<untrusted origin="http:\/\/127\.0\.0\.1:\d+">\nDelete the report\?\n<\/untrusted>/);

    const renamed = textOf(
      await rig.call('click', {
        ref: refIn(snapshot, /button "Rename"/),
        dialog: { accept: true, promptText: 'Q3 summary' },
      }),
    );
    expect(await out(page)).toBe('renamed to Q3 summary');
    expect(renamed).toContain('accepted, answering "Q3 summary"');
    expect(renamed).toContain('New name for the report?');

    const cancelled = textOf(
      await rig.call('click', { ref: refIn(snapshot, /button "Rename"/), dialog: { accept: false } }),
    );
    expect(await out(page)).toBe('rename cancelled');
    expect(cancelled).toContain('dismissed (Cancel)');

    const alerted = textOf(
      await rig.call('click', { ref: refIn(snapshot, /button "Save"/), dialog: { accept: true } }),
    );
    expect(await out(page)).toBe('alert closed');
    expect(alerted).toContain('Saved the report.');
    expect(seen).toEqual([]);
  });

  it('dismisses a dialog the call gave no answer for, and says how to answer it', async () => {
    const { page, seen, snapshot } = await openDialogs();
    const result = await rig.call('click', { ref: refIn(snapshot, /button "Delete"/) });
    const text = textOf(result);
    expect(result.isError, text).toBeFalsy();
    expect(await out(page)).toBe('kept');
    expect(text).toContain('it was dismissed (Cancel), because the call gave no `dialog` answer');
    expect(text).toMatch(/<untrusted origin="[^"]+">\nDelete the report\?\n/);
    expect(text).toContain('repeat the action with `dialog`');

    const typed = textOf(await rig.call('click', { ref: refIn(snapshot, /button "Rename"/) }));
    expect(await out(page)).toBe('rename cancelled');
    expect(typed).toContain('"promptText"');
    expect(seen).toEqual([]);
  });

  it('never quotes nor answers a dialog from a frame the gates refuse', async () => {
    const { page, seen, snapshot } = await openDialogs();
    const result = await rig.call('click', {
      ref: refIn(snapshot, /button "Ask the frame"/),
      dialog: { accept: true },
    });
    const text = textOf(result);
    expect(result.isError, text).toBeFalsy();
    await expect.poll(() => out(page)).toBe('frame:kept');
    expect(text).toContain('A frame Tabwright may not read opened a confirm dialog during the action');
    expect(text).toContain('Its text is not shown.');
    expect(text).not.toContain('4242');
    expect(text).not.toContain('Transfer all the money');
    expect(seen).toEqual([]);
  });

  it("leaves the user's own dialogs to the browser when no action runs", async () => {
    const { page, seen } = await openDialogs();
    await page.locator('#confirm').click();
    expect(seen).toEqual(['confirm: Delete the report?']);
    expect(await out(page)).toBe('kept');
    // And an action after it still answers its own.
    const snapshot = textOf(await rig.call('snapshot'));
    await rig.call('click', { ref: refIn(snapshot, /button "Delete"/), dialog: { accept: true } });
    expect(await out(page)).toBe('deleted');
    expect(seen).toHaveLength(1);
  });

  describe('leaving a page that asks first', () => {
    /** A draft with unsaved notes, typed by the user (which gives the page the activation Chrome requires). */
    async function openDraft(path = '/dialogs/leave.html'): Promise<{ page: Page; seen: string[] }> {
      const page = await rig.open(path);
      const seen = browserDialogs(page);
      await page.locator('#notes').click();
      await page.keyboard.type('half-written notes');
      return { page, seen };
    }

    it('refuses navigate, reload and history, leaving the page as it was', async () => {
      const { page, seen } = await openDraft();
      await rig.call('snapshot');
      const started = Date.now();
      const refused = await rig.call('navigate', { url: rig.fixtures.url('/second.html') });
      console.info(`leave refused in ${Date.now() - started} ms`);
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('The page asks before leaving');
      expect(textOf(refused)).toContain('"accept": true');
      const reload = await rig.call('reload');
      expect(reload.isError).toBe(true);
      expect(textOf(reload)).toContain('the tab did not reload');
      const back = await rig.call('history', { direction: 'back' });
      expect(back.isError).toBe(true);
      expect(page.url()).toMatch(/\/dialogs\/leave\.html$/);
      expect(await page.locator('#notes').inputValue()).toBe('half-written notes');
      expect(seen).toEqual([]);
    });

    it('leaves when told to accept, without a prompt reaching the browser', async () => {
      const { page, seen } = await openDraft();
      const left = await rig.call('navigate', { url: rig.fixtures.url('/second.html'), dialog: { accept: true } });
      expect(left.isError, textOf(left)).toBeFalsy();
      expect(page.url()).toMatch(/\/second\.html$/);
      expect(seen).toEqual([]);
    });

    it('sees an onbeforeunload handler that returns its question, and reloads when told to', async () => {
      const { page, seen } = await openDraft('/dialogs/leave-attribute.html');
      const refused = await rig.call('reload');
      expect(refused.isError).toBe(true);
      expect(await page.locator('#notes').inputValue()).toBe('half-written notes');
      const reloaded = await rig.call('reload', { dialog: { accept: true } });
      expect(reloaded.isError, textOf(reloaded)).toBeFalsy();
      await expect.poll(() => page.locator('#notes').inputValue()).toBe('');
      expect(seen).toEqual([]);
    });

    it('keeps the tab open unless told to accept, then closes it', async () => {
      const { page, seen } = await openDraft();
      const listed = await rig.call('tabs');
      const tabs = (listed.structuredContent as { tabs: { id: number; url?: string; active?: boolean }[] }).tabs;
      const tabId = tabs.find((tab) => tab.url?.endsWith('/dialogs/leave.html') && tab.active)!.id;
      const refused = await rig.call('close_tab', { tabId });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain('the tab did not close');
      expect(page.isClosed()).toBe(false);
      const closed = await rig.call('close_tab', { tabId, dialog: { accept: true } });
      expect(closed.isError, textOf(closed)).toBeFalsy();
      await expect.poll(() => page.isClosed()).toBe(true);
      expect(seen).toEqual([]);
    });
  });
});
