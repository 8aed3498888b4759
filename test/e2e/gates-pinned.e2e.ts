/**
 * Reads pinned to what the gates checked, in real Chromium: pages that move to a site Tabwright
 * has not allowed (one port away: localhost instead of 127.0.0.1), or to a blocklisted path on an
 * allowed site, while a tool runs — at several timings — and frames that inherit a not-allowed
 * parent's origin. Whatever the timing, nothing of the page the gates refused reaches the agent.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startActionRig, textOf, type ActionRig } from './actions-rig';
import type { Route } from './fixture-server';

const NOT_ALLOWED = /TOP-SECRET|Secret — not allowed/;
const BLOCKED = /BLOCKED-PATH|BLOCKED-ROUTE|Account settings|account page/;
const NESTED = /NESTED-BLANK-(?:SECRET|BUTTON)|OTHER-FRAME-TEXT/;
const REFUSED = /may not read|not an allowed site|high-risk blocklist/;

/** A real HTTP redirect: /gates/redirect?to=PATH answers 302 to PATH. */
const redirect: Route = (request, response) => {
  const url = new URL(request.url ?? '/', 'http://fixture');
  if (url.pathname !== '/gates/redirect') return false;
  response.writeHead(302, { location: url.searchParams.get('to') ?? '/', 'cache-control': 'no-store' }).end();
  return true;
};

describe('reads pinned to the document the gates checked', () => {
  let rig: ActionRig;
  let tab: Page;
  let secretUrl: string;

  beforeAll(async () => {
    rig = await startActionRig({ routes: [redirect] });
    secretUrl = `${rig.fixtures.other}/gates/secret.html`;
    await rig.panel.getByRole('button', { name: 'Settings' }).click();
    await rig.panel.getByRole('textbox', { name: 'Site to block' }).fill('127.0.0.1/gates/blocked');
    await rig.panel.getByRole('button', { name: 'Block site' }).click();
    await rig.panel.getByRole('list', { name: 'Added by you' }).getByText('127.0.0.1/gates/blocked').waitFor();
    await rig.panel.getByRole('button', { name: 'Settings' }).click();
    tab = await rig.open('/gates/mover.html');
  });

  afterAll(async () => {
    await rig?.close();
  });

  for (const after of [0, 20, 40, 120, 300]) {
    it(`navigate: a page that sends itself to a not-allowed site ${after} ms after load is not read`, async () => {
      await tab.goto(rig.fixtures.url('/gates/mover.html'));
      const target = rig.fixtures.url(`/gates/mover.html?after=${after}&to=${encodeURIComponent(secretUrl)}`);
      const text = textOf(await rig.call('navigate', { url: target }));
      await tab.waitForURL(secretUrl);
      expect(text).not.toMatch(NOT_ALLOWED);
      expect(text).not.toContain(`origin="${rig.fixtures.other}"`);
      // Either the allowed page was read before it moved, or the answer says why nothing is shown.
      expect(text).toMatch(/Allowed page that moves|may not read|not an allowed site/);
    });
  }

  for (const tool of ['snapshot', 'find', 'get_text', 'read_dom'] as const) {
    for (const delay of [0, 10, 40, 120]) {
      it(`${tool} while the page moves to a not-allowed site after ${delay} ms shows none of it`, async () => {
        await tab.goto(rig.fixtures.url('/gates/mover.html?to=' + encodeURIComponent(secretUrl)));
        await tab.evaluate((ms) => (window as unknown as { moveSoon(ms: number): void }).moveSoon(ms), delay);
        const args = tool === 'find' ? { text: 'SECRET' } : {};
        const text = textOf(await rig.call(tool, args));
        await tab.waitForURL(secretUrl);
        expect(text).not.toMatch(NOT_ALLOWED);
        expect(text).not.toContain(`origin="${rig.fixtures.other}"`);
      });
    }
  }

  it('navigate: a real redirect to a blocklisted path on an allowed site is not read', async () => {
    await tab.goto(rig.fixtures.url('/gates/mover.html'));
    const target = rig.fixtures.url(`/gates/redirect?to=${encodeURIComponent('/gates/blocked/secret.html')}`);
    const result = await rig.call('navigate', { url: target });
    const text = textOf(result);
    expect(text).not.toMatch(BLOCKED);
    expect(text).toMatch(REFUSED);
  });

  for (const after of [0, 40, 120]) {
    it(`navigate: an in-page route change to a blocklisted path ${after} ms after load is not read`, async () => {
      await tab.goto(rig.fixtures.url('/gates/mover.html'));
      const target = rig.fixtures.url(`/gates/router.html?after=${after}&route=/gates/blocked/route`);
      const text = textOf(await rig.call('navigate', { url: target }));
      await tab.waitForURL(/blocked\/route/);
      expect(text).not.toMatch(BLOCKED);
      expect(text).toMatch(/Router home|may not read|blocklist/);
    });
  }

  it('wait_for: a route change to a blocklisted path during the wait is not read, met or timed out', async () => {
    await tab.goto(rig.fixtures.url('/gates/router.html'));
    await tab.evaluate(() =>
      setTimeout(() => (window as unknown as { routeTo(p: string): void }).routeTo('/gates/blocked/route'), 150),
    );
    const timedOut = textOf(await rig.call('wait_for', { text: 'never on this page', timeout: 1_000 }));
    expect(timedOut).not.toMatch(BLOCKED);
    expect(timedOut).toMatch(REFUSED);

    await tab.goto(rig.fixtures.url('/gates/router.html'));
    await tab.evaluate(() =>
      setTimeout(() => (window as unknown as { routeTo(p: string): void }).routeTo('/gates/blocked/route'), 150),
    );
    const met = textOf(await rig.call('wait_for', { text: 'BLOCKED-ROUTE-HEADING', timeout: 3_000 }));
    expect(met.replaceAll('text "BLOCKED-ROUTE-HEADING"', '')).not.toMatch(BLOCKED);
  });

  // Verdicts belong to addresses, never to documents: the same document at a blocklisted path is refused.
  for (const after of [0, 50, 200]) {
    it(`click: a route change to a blocklisted path ${after} ms into the action is not read`, async () => {
      await tab.goto(rig.fixtures.url(`/gates/router.html?clickAfter=${after}`));
      const snapshot = textOf(await rig.call('snapshot'));
      const ref = /button "Open account" \[(\w+)\]/.exec(snapshot)?.[1];
      expect(ref, snapshot).toBeDefined();
      const result = await rig.call('click', { ref });
      const text = textOf(result);
      await tab.waitForURL(/blocked\/route/);
      expect(text).not.toMatch(BLOCKED);
      expect(text).toMatch(REFUSED);
    });
  }

  describe('an about:blank frame inside a not-allowed frame inside an allowed page', () => {
    /** Chrome's frame id of the about:blank frame whose parent is on the not-allowed site. */
    async function blankFrameId(): Promise<number> {
      return rig.launched.worker.evaluate(async (other) => {
        const [active] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
        const frames = (await chrome.webNavigation.getAllFrames({ tabId: active!.id! })) ?? [];
        const parent = frames.find((frame) => frame.url.startsWith(other));
        const blank = frames.find((frame) => frame.parentFrameId === parent?.frameId && frame.url.startsWith('about:'));
        return blank?.frameId ?? -1;
      }, rig.fixtures.other);
    }

    beforeAll(async () => {
      await tab.goto(rig.fixtures.url(`/gates/nested.html?other=${encodeURIComponent(rig.fixtures.other)}`));
      await tab.frameLocator('#outer').frameLocator('#blank').getByText('NESTED-BLANK-SECRET').waitFor();
    });

    for (const [tool, args] of [
      ['snapshot', {}],
      ['get_text', {}],
      ['find', { text: 'NESTED' }],
    ] as const) {
      it(`${tool} shows none of it`, async () => {
        const text = textOf(await rig.call(tool, args));
        expect(text).not.toMatch(NESTED);
        if (tool !== 'find') expect(text).toContain('ALLOWED-TOP');
      });
    }

    it('wait_for does not see its text', async () => {
      const text = textOf(await rig.call('wait_for', { text: 'NESTED-BLANK-SECRET', timeout: 1_000 }));
      expect(text).toMatch(/Timed out/);
      expect(text).not.toMatch(/NESTED-BLANK-BUTTON|OTHER-FRAME-TEXT/);
    });

    it('an action by a ref in that frame is refused and does nothing', async () => {
      const frameId = await blankFrameId();
      expect(frameId).toBeGreaterThan(0);
      const result = await rig.call('click', { ref: `f${frameId}e1` });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(REFUSED);
      const clicked = await tab
        .frameLocator('#outer')
        .frameLocator('#blank')
        .locator('body')
        .evaluate(() => (window as unknown as { clicked?: number }).clicked ?? 0);
      expect(clicked).toBe(0);
    });
  });
});
