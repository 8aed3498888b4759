// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { PageAgent } from '../agent';

const agent = () => new PageAgent(document);

async function wait(target: PageAgent, command: Record<string, unknown>) {
  return target.handle({ op: 'waitFor', waitId: 'w1', timeoutMs: 2_000, ...command });
}

describe('waitFor', () => {
  afterEach(() => {
    document.body.innerHTML = '';
  });

  it('answers at once when the text is already there', async () => {
    document.body.innerHTML = '<p>Saved</p>';
    expect(await wait(agent(), { text: 'saved' })).toMatchObject({ ok: true, value: { met: true } });
  });

  it('resolves when text appears after a DOM change', async () => {
    const page = agent();
    const pending = wait(page, { text: 'Order placed' });
    setTimeout(
      () => document.body.append(Object.assign(document.createElement('p'), { textContent: 'Order placed' })),
      50,
    );
    expect(await pending).toMatchObject({ ok: true, value: { met: true } });
  });

  it('resolves when an element disappears', async () => {
    document.body.innerHTML = '<div class="spinner">Loading</div>';
    const pending = wait(agent(), { selector: '.spinner', gone: true });
    setTimeout(() => document.querySelector('.spinner')!.remove(), 50);
    expect(await pending).toMatchObject({ ok: true, value: { met: true } });
  });

  it('waits for an element as a snapshot would print it, by role and whole name, and for it to go', async () => {
    document.body.innerHTML = '<section aria-label="Done"><p>Saving</p></section>';
    const page = agent();
    const pending = wait(page, { target: { role: 'button', name: 'Undo' } });
    setTimeout(
      () =>
        document
          .querySelector('section')!
          .append(Object.assign(document.createElement('button'), { textContent: 'Undo move' })),
      20,
    );
    setTimeout(
      () =>
        document
          .querySelector('section')!
          .append(Object.assign(document.createElement('button'), { textContent: 'Undo' })),
      60,
    );
    expect(await pending).toMatchObject({ ok: true, value: { met: true } });
    expect(document.querySelectorAll('button')).toHaveLength(2);
    const gone = wait(page, { target: { role: 'text', name: 'Saving' }, gone: true });
    setTimeout(() => ((document.querySelector('p') as HTMLElement).style.display = 'none'), 20);
    expect(await gone).toMatchObject({ ok: true, value: { met: true } });
    expect(await wait(page, { target: { role: 'region', name: 'Done' }, timeoutMs: 50 })).toMatchObject({
      value: { met: true, waitedMs: expect.any(Number) },
    });
  });

  it('gives up after the timeout', async () => {
    const started = Date.now();
    const result = await wait(agent(), { text: 'never', timeoutMs: 150 });
    expect(result).toMatchObject({ ok: true, value: { met: false } });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('stops when the panel cancels it', async () => {
    const page = agent();
    const pending = wait(page, { text: 'never', timeoutMs: 10_000 });
    expect(page.waits.has('w1')).toBe(true);
    await page.handle({ op: 'cancelWait', waitId: 'w1' });
    expect(await pending).toMatchObject({ ok: true, value: { met: false } });
    expect(page.waits.size).toBe(0);
  });

  it('refuses a selector that is not CSS', async () => {
    expect(await wait(agent(), { selector: '[[nope' })).toMatchObject({ ok: false, code: 'bad-selector' });
  });

  it('counts a hidden element only when visibility is not asked for', async () => {
    document.body.innerHTML = '<div class="rows" hidden></div>';
    const rows = document.querySelector('.rows')!;
    // jsdom lays nothing out; the element says it is not rendered, as Chrome would for `hidden`.
    Object.assign(rows, { checkVisibility: () => false });
    expect(await wait(agent(), { selector: '.rows', timeoutMs: 100 })).toMatchObject({ value: { met: false } });
    expect(await wait(agent(), { selector: '.rows', visible: false })).toMatchObject({ value: { met: true } });
    const gone = wait(agent(), { selector: '.rows', visible: false, gone: true });
    setTimeout(() => rows.remove(), 20);
    expect(await gone).toMatchObject({ ok: true, value: { met: true } });
  });
});
