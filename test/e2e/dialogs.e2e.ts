/**
 * JavaScript dialogs and "Leave site?" prompts through the built extension in Chromium: answers
 * given up front, dialogs dismissed and reported when none was given, a frame the gates refuse
 * never quoted, the user's own dialogs left to the browser, and leaving a page that asks refused
 * unless told to accept. Every page fails the test if a dialog reaches the browser when it should
 * not (Playwright would otherwise dismiss it quietly and hide the bug).
 */
import type { Dialog, Page } from 'playwright-core';
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

/** Dialogs that reached the browser on `page`, left open as the user would, until the test answers them. */
function dialogsLeftOpen(page: Page): Dialog[] {
  const open: Dialog[] = [];
  page.on('dialog', (dialog) => void open.push(dialog));
  return open;
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

  describe('a dialog of the user’s left open', () => {
    const HELD = 'The page is showing its own confirm dialog, opened while no agent action ran.';
    /** The page's own confirm, opened by its Delete button outside any call, in `ms`. */
    const openConfirmIn = (page: Page, ms: number) =>
      page.evaluate((delay) => void setTimeout(() => document.getElementById('confirm')!.click(), delay), ms);

    it('ends page calls on its tab at once, sending nothing, and they work again once it is answered', async () => {
      const page = await rig.open('/dialogs/dialogs.html');
      const open = dialogsLeftOpen(page);
      const snapshot = textOf(await rig.call('snapshot'));
      await openConfirmIn(page, 0);
      await expect.poll(() => open.length).toBe(1);
      for (const [tool, args] of [
        ['snapshot', {}],
        ['click', { ref: refIn(snapshot, /button "Save"/) }],
        ['find', { text: 'Report' }],
      ] as const) {
        const result = await rig.call(tool, args);
        expect(result.isError, tool).toBe(true);
        expect(textOf(result)).toContain(HELD);
      }
      // Listing tabs does not touch the page; closing it would first ask the page, so it is refused.
      const listed = await rig.call('tabs');
      expect(listed.isError).toBeFalsy();
      const tabs = (listed.structuredContent as { tabs: { id: number; active?: boolean }[] }).tabs;
      const closing = await rig.call('close_tab', { tabId: tabs.find((tab) => tab.active)!.id });
      expect(closing.isError).toBe(true);
      expect(textOf(closing)).toContain(HELD);
      expect(page.isClosed()).toBe(false);
      await open[0]!.dismiss();
      await expect.poll(() => out(page)).toBe('kept');
      const again = await rig.call('snapshot');
      expect(again.isError, textOf(again)).toBeFalsy();
      expect(textOf(again)).toContain('"kept"');
      // The click was never sent: no alert followed the user's answer.
      expect(open).toHaveLength(1);
      expect(await out(page)).toBe('kept');
    });

    it.each([0, 50, 300, 1_000])('ends a call it interrupts (opened %i ms into it), saying so', async (delay) => {
      const page = await rig.open('/dialogs/dialogs.html');
      const open = dialogsLeftOpen(page);
      await rig.call('snapshot');
      await openConfirmIn(page, delay);
      const result = await rig.call('wait_for', { text: 'never on this page', timeout: 30_000 });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain(HELD);
      // Opened that late, it can only have come while the call waited.
      if (delay >= 300) expect(textOf(result)).toContain('The call stopped there');
      expect(open).toHaveLength(1);
      await open[0]!.accept();
      await expect.poll(() => out(page)).toBe('deleted');
      const after = await rig.call('find', { text: 'deleted' });
      expect(after.isError, textOf(after)).toBeFalsy();
    });
    /** The service worker's record of the user's open dialogs (src/platform/chrome-user-dialogs.ts). */
    const recorded = () =>
      rig.launched.worker.evaluate(async () => {
        const stored = (await chrome.storage.session.get('userDialogs')).userDialogs as
          Array<{ kind: string; frameId: number }> | undefined;
        return (stored ?? []).map(({ kind, frameId }) => ({ kind, frameId }));
      });

    it('is known to a panel opened while it is up, whose first call there ends at once', async () => {
      const page = await rig.open('/dialogs/dialogs.html');
      const open = dialogsLeftOpen(page);
      await rig.call('snapshot');
      await openConfirmIn(page, 0);
      await expect.poll(() => open.length).toBe(1);
      await expect.poll(recorded).toEqual([{ kind: 'confirm', frameId: 0 }]);
      // A new panel heard nothing of it: only the service worker's record can tell it.
      await rig.reloadPanel();
      for (const [tool, args] of [
        ['snapshot', {}],
        ['find', { text: 'Report' }],
      ] as const) {
        const result = await rig.call(tool, args);
        expect(result.isError, tool).toBe(true);
        expect(textOf(result)).toContain(HELD);
      }
      await open[0]!.dismiss();
      await expect.poll(() => out(page)).toBe('kept');
      const again = await rig.call('snapshot');
      expect(again.isError, textOf(again)).toBeFalsy();
      expect(textOf(again)).toContain('"kept"');
      // Answered, the dialog leaves the record, which no panel then has to check again.
      await expect.poll(recorded).toEqual([]);
    });
  });

  it.each([150, 400, 800])(
    'never does an action that reached the page behind the user’s dialog (page busy %i ms first)',
    async (busyMs) => {
      const page = await rig.open('/dialogs/dialogs.html');
      const open = dialogsLeftOpen(page);
      const snapshot = textOf(await rig.call('snapshot'));
      // The page is busy, then asks its user: an action sent meanwhile waits behind the dialog.
      await page.evaluate(
        (ms) =>
          void setTimeout(() => {
            const end = Date.now() + ms;
            while (Date.now() < end);
            document.getElementById('confirm')!.click();
          }, 0),
        busyMs,
      );
      const result = await rig.call('click', { ref: refIn(snapshot, /button "Save"/) });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toContain('The page is showing its own confirm dialog');
      await expect.poll(() => open.length).toBe(1);
      await open[0]!.accept();
      // Page commands run in order, so this one runs after the waiting click had its turn.
      const after = await rig.call('find', { text: 'deleted' });
      expect(after.isError, textOf(after)).toBeFalsy();
      expect(await out(page)).toBe('deleted');
      expect(open).toHaveLength(1);
    },
  );

  describe('a page that asks its user as it loads', () => {
    it.each(['parse', 'load'])(
      'is reached by navigate, which says it could not be read (asking at %s)',
      async (when) => {
        const page = await rig.open('/dialogs/dialogs.html');
        await rig.call('snapshot');
        const open = dialogsLeftOpen(page);
        const url = rig.fixtures.url(`/dialogs/asks-on-load.html?when=${when}`);
        const result = await rig.call('navigate', { url });
        const text = textOf(result);
        expect(result.isError, text).toBeFalsy();
        expect(text).toContain(`Navigated to ${url}.`);
        expect(text).toContain('The page is showing its own confirm dialog');
        expect(text).toContain('It could not be read');
        expect(open).toHaveLength(1);
        await open[0]!.accept();
        await expect.poll(() => page.locator('#out').innerText()).toBe('draft restored');
        const read = await rig.call('snapshot');
        expect(textOf(read)).toContain('"draft restored"');
      },
    );
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
