/**
 * Actions that move the tab: clicks and submits that load another page, a single-page app's route
 * change, navigate, history at both ends, reload, and opening, switching and closing tabs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refIn, startActionRig, textOf, type ActionRig } from './actions-rig';

describe('navigation', () => {
  let rig: ActionRig;

  beforeAll(async () => {
    rig = await startActionRig();
  });
  afterAll(async () => rig?.close());

  describe('actions that load another page', () => {
    it('follows a button whose script navigates, and shows the new page whole', async () => {
      const page = await rig.open('/actions/navigation.html');
      const snapshot = textOf(await rig.call('snapshot'));
      const ref = refIn(snapshot, /button "Go to the second page"/);
      const result = await rig.call('click', { ref });
      const text = textOf(result);
      expect(result.isError, text).toBeFalsy();
      // The page names what it clicked, unless the navigation took the document (and its answer)
      // away first; then the panel names it from the last snapshot, ref included. Which one wins
      // is a race in the browser, and both say what was clicked.
      expect(['Clicked <button> "Go to the second page"', `Clicked button "Go to the second page" [${ref}]`]).toContain(
        text.split(/;|\n/, 1)[0],
      );
      expect(text).toMatch(/the page changed to http:\/\/127\.0\.0\.1:\d+\/second\.html\?from=button/);
      expect(text).toContain('# snapshot — Second page');
      expect(page.url()).toContain('/second.html?from=button');
    });

    it('follows a link and a form submitted with Enter', async () => {
      const page = await rig.open('/actions/navigation.html');
      let snapshot = textOf(await rig.call('snapshot'));
      const linked = textOf(await rig.call('click', { ref: refIn(snapshot, /link "Plain link"/) }));
      expect(linked).toContain('# snapshot — Second page');
      expect(page.url()).toMatch(/\/second\.html$/);

      await page.goto(rig.fixtures.url('/actions/navigation.html'));
      snapshot = textOf(await rig.call('snapshot'));
      const searched = textOf(
        await rig.call('type', { ref: refIn(snapshot, /textbox "Query"/), text: 'tabs', submit: true }),
      );
      // The page's own line, or, when the submit took the page away before it answered, the server's.
      expect(searched).toMatch(
        /^Typed (?:"tabs" into <input> "Query"; submitted the form|4 characters into textbox "Query" \[e\d+\] and pressed Enter)/,
      );
      expect(searched).toContain('# snapshot — Second page');
      expect(page.url()).toContain('/second.html?q=tabs');
    });

    it('refuses a stale ref from the page before the navigation', async () => {
      const page = await rig.open('/actions/navigation.html');
      const snapshot = textOf(await rig.call('snapshot'));
      await page.goto(rig.fixtures.url('/index.html'));
      const result = await rig.call('click', { ref: refIn(snapshot, /link "Plain link"/) });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/snapshot again/i);
      expect(page.url()).toMatch(/\/index\.html$/);
    });
  });

  it('shows a route change in a single-page app as a diff with the new URL and title', async () => {
    const page = await rig.open('/actions/spa.html');
    await page.getByRole('heading', { name: 'Welcome home' }).waitFor();
    const snapshot = textOf(await rig.call('snapshot'));
    const result = textOf(await rig.call('click', { ref: refIn(snapshot, /link "About"/) }));
    expect(result).toContain('Clicked <a> "About"');
    expect(result).toMatch(
      /^# url: http:\/\/127\.0\.0\.1:\d+\/actions\/spa\.html → http:\/\/127\.0\.0\.1:\d+\/actions\/spa\.html\?page=about · title: SPA about$/m,
    );
    expect(result).toMatch(/~ +- heading "About us" \[level=1\] \(was: "Welcome home"\)/);
    expect(result).toMatch(/\+ +- button "Contact" \[e\d+\]/);
    expect(result).not.toContain('# snapshot —');
    // The links were not re-rendered: their refs still work.
    const home = textOf(await rig.call('click', { ref: refIn(snapshot, /link "Home"/) }));
    expect(home).toMatch(/~ +- heading "Welcome home"/);
    // History inside the app is a same-document step: it still returns the page.
    const back = textOf(await rig.call('history', { direction: 'back' }));
    expect(back).toContain('Went back to');
    expect(back).toContain('About us');
  });

  describe('navigate, history and reload', () => {
    it('navigates to an allowed page and refuses other sites and non-web URLs', async () => {
      const page = await rig.open('/index.html');
      const result = textOf(await rig.call('navigate', { url: rig.fixtures.url('/actions/hover.html') }));
      expect(result).toContain(`Navigated to ${rig.fixtures.url('/actions/hover.html')}`);
      expect(result).toContain('# snapshot — Hover menus');
      expect(page.url()).toContain('/actions/hover.html');

      const other = await rig.call('navigate', { url: `${rig.fixtures.other}/index.html` });
      expect(other.isError).toBe(true);
      expect(textOf(other)).toContain('not an allowed site');
      for (const url of ['file:///etc/passwd', 'second.html', 'javascript:alert(1)']) {
        const refused = await rig.call('navigate', { url });
        expect(refused.isError, url).toBe(true);
      }
      expect(page.url()).toContain('/actions/hover.html');
    });

    it('goes back and forward, and says so cleanly at either end of the history', async () => {
      // Brought to the front: this agent works in the tab the user has in front.
      const opened = await rig.call('new_tab', { url: rig.fixtures.url('/index.html'), active: true });
      const tabId = (opened.structuredContent as { tabId: number }).tabId;
      const atStart = await rig.call('history', { direction: 'back' });
      expect(atStart.isError).toBe(true);
      expect(textOf(atStart)).toContain('no earlier page');
      await rig.call('navigate', { url: rig.fixtures.url('/second.html') });
      const back = textOf(await rig.call('history', { direction: 'back' }));
      expect(back).toContain('# snapshot — Tabwright demo page');
      const forward = textOf(await rig.call('history', { direction: 'forward' }));
      expect(forward).toContain('# snapshot — Second page');
      const atEnd = await rig.call('history', { direction: 'forward' });
      expect(atEnd.isError).toBe(true);
      expect(textOf(atEnd)).toContain('no later page');
      await rig.call('close_tab', { tabId });
    });

    it('reloads, after which refs from before are stale', async () => {
      await rig.open('/index.html');
      const before = textOf(await rig.call('snapshot'));
      const reloaded = textOf(await rig.call('reload', { bypassCache: true }));
      expect(reloaded).toContain('Reloaded');
      expect(reloaded).toContain('(bypassing the cache)');
      expect(reloaded).toContain('# snapshot — Tabwright demo page');
      const count = refIn(before, /button "Count"/);
      expect(refIn(reloaded, /button "Count"/)).not.toBe(count);
      const stale = await rig.call('click', { ref: count });
      expect(stale.isError).toBe(true);
    });
  });

  describe('tabs', () => {
    it('opens, brings to the front and closes tabs, and leaves which tab is in front to the user', async () => {
      const first = await rig.open('/index.html');
      const firstTabs = textOf(await rig.call('tabs'));
      const firstId = Number(/- \[(\d+)\] \(active\)/.exec(firstTabs)![1]);

      const opened = await rig.call('new_tab', { url: rig.fixtures.url('/second.html'), active: true });
      const openedText = textOf(opened);
      const secondId = (opened.structuredContent as { tabId: number }).tabId;
      expect(openedText).toContain(`Opened tab ${secondId} with ${rig.fixtures.url('/second.html')}`);
      expect(openedText).toContain('# snapshot — Second page');
      expect(textOf(await rig.call('snapshot'))).toContain('# snapshot — Second page');

      // By default a new tab opens in the background, and the tab in front stays where it is.
      const blank = await rig.call('new_tab', {});
      expect(textOf(blank)).toContain('in the background');
      expect(textOf(await rig.call('snapshot'))).toContain('# snapshot — Second page');

      // Which tab is in front is the user's to choose: an agent that follows it cannot switch.
      const switched = await rig.call('switch_tab', { tabId: firstId });
      expect(switched.isError).toBe(true);
      expect(textOf(switched)).toContain(`ask them to bring tab ${firstId} to the front`);
      await first.bringToFront();

      const closed = await rig.call('close_tab', { tabId: secondId });
      expect(textOf(closed)).toContain(`Closed tab ${secondId}`);
      expect(textOf(closed)).not.toContain(`[${secondId}]`);
      expect(textOf(closed)).toContain(`[${firstId}] (active)`);

      const missing = await rig.call('close_tab', { tabId: 999_999 });
      expect(missing.isError).toBe(true);
      expect(textOf(missing)).toContain('There is no tab with id 999999');
      const refused = await rig.call('new_tab', { url: `${rig.fixtures.other}/index.html` });
      expect(refused.isError).toBe(true);
    });

    it('notes a tab that a link opened', async () => {
      await rig.open('/actions/navigation.html');
      const snapshot = textOf(await rig.call('snapshot'));
      const result = textOf(await rig.call('click', { ref: refIn(snapshot, /link "Open in a new tab"/) }));
      expect(result).toMatch(/it opened a new tab \(id \d+\): switch_tab to work there/);
    });
  });
});
