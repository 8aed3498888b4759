/**
 * The agent's own window and what a hidden tab cannot do, in headed Chromium run as a person runs
 * it (see background-rig.ts). A tab opened with `new_tab { ownWindow: true }` lives in a normal
 * window that is open but not focused: it draws frames and can be pictured, while the person's
 * window keeps its focus and its tab. In a tab behind the person's, an action whose effect waits
 * on frames (a transition's end, a requestAnimationFrame callback) says so and names the remedy,
 * and a screenshot is refused saying why. A long `type` pauses while the person types in its tab.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackgroundRig, textOf, watchPerson, type BackgroundRig, type PersonWatch } from './background-rig';
import { waitFor } from './harness';
import { distWithAllUrls } from './screenshot-setup';

const HELD_BACK = /This tab is not in front, so Chrome draws no frames for it/;
const REMEDY = 'open the page in your own window (new_tab with ownWindow: true)';

describe('the agent’s own window', () => {
  let rig: BackgroundRig;
  let person: PersonWatch;

  beforeAll(async () => {
    rig = await startBackgroundRig({ headed: true, dist: distWithAllUrls(), screenshots: true });
    person = await watchPerson(rig);
  });
  afterAll(async () => rig?.close());

  const expectPersonUndisturbed = () => person.expectUndisturbed();

  const pageAt = async (url: string): Promise<Page> => {
    let page: Page | undefined;
    await waitFor(() => (page = rig.launched.context.pages().find((p) => p.url() === url)) !== undefined);
    return page!;
  };

  const refOf = (text: string, line: RegExp) => line.exec(text)?.[1] ?? '';

  it('opens tabs in a window of the agent’s own that draws frames, while the person keeps focus and tab', async () => {
    const [alpha] = rig.agents;
    const url = rig.fixtures.url('/background/frames.html?own');
    const opened = await alpha!.call('new_tab', { url, ownWindow: true });
    expect(opened.isError, textOf(opened)).toBeFalsy();
    expect(textOf(opened)).toContain('in your own window');
    const windowId = (opened.structuredContent as { windowId: number }).windowId;
    expect(windowId).not.toBe(person.windowId);
    const page = await pageAt(url);
    expect(await page.evaluate('[document.visibilityState, document.hasFocus()]')).toEqual(['visible', false]);
    await expectPersonUndisturbed();

    const found = textOf(await alpha!.call('find', { text: 'Open drawer' }));
    const clicked = await alpha!.call('click', { ref: refOf(found, /button "Open drawer" \[(\w+)\]/) });
    expect(clicked.isError, textOf(clicked)).toBeFalsy();
    expect(textOf(clicked)).not.toMatch(HELD_BACK);
    await expect.poll(() => page.locator('#drawer-state').textContent()).toBe('open');

    // A second tab of its own goes to the same window, shown there.
    const second = await alpha!.call('new_tab', {
      url: rig.fixtures.url('/background/frames.html?own2'),
      ownWindow: true,
    });
    expect(second.isError, textOf(second)).toBeFalsy();
    expect((second.structuredContent as { windowId: number }).windowId).toBe(windowId);
    await expectPersonUndisturbed();
  });

  it('pictures the tab its own window shows without activating anything', async () => {
    const [alpha] = rig.agents;
    const shot = await alpha!.call('screenshot');
    expect(shot.isError, textOf(shot)).toBeFalsy();
    expect(shot.content.some((part) => part.type === 'image')).toBe(true);
    await expectPersonUndisturbed();
  });

  it('says when an action’s effect waits on frames a hidden tab does not draw, and names the remedy', async () => {
    const [, beta] = rig.agents;
    const url = rig.fixtures.url('/background/frames.html?hidden');
    const opened = await beta!.call('new_tab', { url });
    expect(opened.isError, textOf(opened)).toBeFalsy();
    const page = await pageAt(url);
    expect(await page.evaluate('document.visibilityState')).toBe('hidden');

    const found = textOf(await beta!.call('find', { text: 'drawer' }));
    const transition = await beta!.call('click', { ref: refOf(found, /button "Open drawer" \[(\w+)\]/) });
    expect(transition.isError, textOf(transition)).toBeFalsy();
    expect(textOf(transition)).toMatch(HELD_BACK);
    expect(textOf(transition)).toContain('animation or transition not finished');
    expect(textOf(transition)).toContain(REMEDY);
    expect(await page.locator('#drawer-state').textContent()).toBe('closed');

    const measure = textOf(await beta!.call('find', { text: 'Measure' }));
    const frame = await beta!.call('click', { ref: refOf(measure, /button "Measure" \[(\w+)\]/) });
    expect(textOf(frame)).toMatch(HELD_BACK);
    expect(textOf(frame)).toContain('requestAnimationFrame');
    expect(await page.locator('#measured').textContent()).toBe('not measured');

    // A plain write in the same hidden tab waits on nothing and says nothing of frames.
    const note = textOf(await beta!.call('find', { text: 'Note' }));
    const typed = await beta!.call('type', { ref: refOf(note, /textbox "Note" \[(\w+)\]/), text: 'plain' });
    expect(textOf(typed)).not.toMatch(HELD_BACK);
    await expectPersonUndisturbed();
  });

  it('refuses a screenshot of a hidden tab, saying why and what can be done', async () => {
    const [, beta] = rig.agents;
    const shot = await beta!.call('screenshot');
    expect(shot.isError).toBe(true);
    expect(textOf(shot)).toContain('is in the background');
    expect(textOf(shot)).toContain(REMEDY.replace('open the page', 'or open the page'));
    expect(textOf(shot)).toContain('ask the user to bring the tab to the front');
    await expectPersonUndisturbed();
  });

  it('pauses a long `type` while the person types in its tab, and goes on once they have been idle a second', async () => {
    const [alpha] = rig.agents;
    const url = rig.fixtures.url('/background/frames.html?own2');
    const page = await pageAt(url);
    const found = textOf(await alpha!.call('find', { text: 'Note' }));
    const text = 'the agent writes a long note, one key at a time, while the person may come and go. '.repeat(12);
    const started = performance.now();
    const typed = alpha!.call('type', { ref: refOf(found, /textbox "Note" \[(\w+)\]/), text: text.trim() });
    // The person starts typing in another field of that tab once the agent's typing is under way.
    await waitFor(async () => (await page.locator('#note').inputValue()).length > 0, 10_000);
    const personStarted = performance.now();
    const midway = (await page.locator('#note').inputValue()).length;
    await page.locator('#reply').click();
    await page.keyboard.type('person', { delay: 150 });
    const personStopped = performance.now();
    // While the person typed, the agent's typing stood still.
    const afterPerson = (await page.locator('#note').inputValue()).length;
    expect(afterPerson).toBeLessThan(text.trim().length);
    const result = await typed;
    const ended = performance.now();
    expect(result.isError, textOf(result)).toBeFalsy();
    expect(personStarted - started).toBeLessThan(ended - started);
    expect(midway).toBeLessThan(text.trim().length);
    expect(ended - personStopped).toBeGreaterThanOrEqual(900);
    expect(await page.locator('#note').inputValue()).toBe(text.trim());
    expect(await page.locator('#reply').inputValue()).toBe('person');
  });
});
