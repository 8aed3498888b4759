// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ConfirmRequest } from '../../mcp-server/gates/types';
import { ARM_DELAY_MS, PromptTray } from './confirmations';

const request = (tool: string, more: Partial<ConfirmRequest> = {}): ConfirmRequest => ({
  agentName: 'Demo',
  server: 'tabwright',
  tool,
  origin: 'https://app.example',
  args: { ref: 'e1', text: '••••••' },
  ...more,
});

const cards = () => [...document.querySelectorAll<HTMLElement>('[role="alertdialog"]')];
const heading = () => cards()[0]?.querySelector('h3')?.textContent;
const button = (name: string) =>
  [...(cards()[0]?.querySelectorAll('button') ?? [])].find(
    (b) => (b.getAttribute('aria-label') ?? b.textContent) === name,
  ) as HTMLButtonElement;
/** A card's buttons answer only once it has been on screen for a moment. */
const waitUntilArmed = () => vi.advanceTimersByTime(ARM_DELAY_MS);

describe('PromptTray.confirm', () => {
  let tray: PromptTray;
  beforeEach(() => {
    vi.useFakeTimers();
    document.body.replaceChildren();
    const root = document.createElement('div');
    document.body.append(root);
    tray = new PromptTray(root);
  });
  afterEach(() => vi.useRealTimers());

  it('says the call in words, keeps its id and exact (masked) arguments one click away, and answers with the button pressed', async () => {
    const answer = tray.confirm(
      request('click', { targets: [{ target: 'e1', element: { role: 'button', name: 'Place order' } }] }),
      120_000,
      new AbortController().signal,
    );
    expect(heading()).toBe('Demo wants to click "Place order" on app.example');
    const details = cards()[0]!.querySelector('details.call-details')!;
    expect(details.hasAttribute('open')).toBe(false);
    expect(details.querySelector('summary')!.textContent).toBe('Arguments');
    expect(details.querySelector('.call-id')!.textContent).toBe('Call: tabwright.click');
    expect(JSON.parse(details.querySelector('pre')!.textContent!)).toEqual({ ref: 'e1', text: '••••••' });
    expect(['Allow once', 'Allow for this site', 'Deny'].map((name) => button(name)?.tagName)).toEqual([
      'BUTTON',
      'BUTTON',
      'BUTTON',
    ]);
    waitUntilArmed();
    button('Allow for this site').click();
    await expect(answer).resolves.toBe('site');
    expect(cards()).toHaveLength(0);
  });

  it('says how a dialog the action opens will be answered, and names it to screen readers', () => {
    const signal = new AbortController().signal;
    void tray.confirm(
      request('click', { args: { ref: 'e1', dialog: { accept: true, promptText: 'Q3' } } }),
      1000,
      signal,
    );
    const line = cards()[0]!.querySelector('.dialog-answer')!;
    expect(line.textContent).toBe(
      'If the page asks (alert, confirm, prompt or “Leave site?”): accept it, answering “Q3”',
    );
    expect(cards()[0]!.getAttribute('aria-describedby')).toContain(line.id);
  });

  it('shows a dismissing answer and an accepting one, and nothing without one', async () => {
    const signal = new AbortController().signal;
    const line = () => cards()[0]?.querySelector('.dialog-answer')?.textContent;
    const first = tray.confirm(request('click', { args: { ref: 'e1', dialog: { accept: false } } }), 120_000, signal);
    expect(line()).toMatch(/: dismiss it \(Cancel\)$/);
    waitUntilArmed();
    button('Deny').click();
    await first;
    const second = tray.confirm(
      request('navigate', { args: { url: 'https://a.example', dialog: { accept: true } } }),
      120_000,
      signal,
    );
    expect(line()).toMatch(/: accept it \(OK\)$/);
    waitUntilArmed();
    button('Deny').click();
    await second;
    void tray.confirm(request('click'), 120_000, signal);
    expect(line()).toBeUndefined();
  });

  it('says on "Allow for this site" that it covers this tool only, its accessible name unchanged', () => {
    void tray.confirm(request('click'), 120_000, new AbortController().signal);
    const site = button('Allow for this site');
    expect(site.textContent).toBe('Allow for this site: click only');
    expect(site.getAttribute('aria-label')).toBe('Allow for this site');
  });

  it("names the element by the page's words on one line, quotes unable to close early", () => {
    const name = 'OK"\n[e2] button "Delete\u202e';
    void tray.confirm(
      request('click', {
        targets: [{ target: 'e1', element: { role: 'button', name } }],
      }),
      120_000,
      new AbortController().signal,
    );
    const item = cards()[0]!.querySelector('.targets li')!.textContent!;
    expect(item).toBe('e1 button "OK” ⟦e2⟧ button ”Delete⟨U+202E⟩"');
    expect(heading()).toBe('Demo wants to click "OK” ⟦e2⟧ button ”Delete⟨U+202E⟩" on app.example');
  });

  it("says a connector's call works in its own tab, not the person's", () => {
    void tray.confirm(
      request('create_issue', {
        server: 'redmine',
        origin: 'http://127.0.0.1:3000',
        url: 'http://127.0.0.1:3000/',
        ownTab: true,
      }),
      120_000,
      new AbortController().signal,
    );
    expect(cards()[0]!.querySelector('.tab-url')!.textContent).toBe('Works in its own tab on: http://127.0.0.1:3000/');
    expect(heading()).toBe('Demo wants to use create_issue on 127.0.0.1:3000');
  });

  it('offers no "for this site" for a tool confirmed every time, and says why', async () => {
    const answer = tray.confirm(
      request('delete_note', { server: 'page.app-example', everyTime: true }),
      120_000,
      new AbortController().signal,
    );
    expect(button('Allow for this site')).toBeUndefined();
    expect(cards()[0]!.querySelector('.every-time')!.textContent).toBe(
      'The page marks this tool as consequential: Tabwright asks every time.',
    );
    expect(cards()[0]!.getAttribute('aria-describedby')).toContain('-every');
    waitUntilArmed();
    button('Allow once').click();
    await expect(answer).resolves.toBe('once');
  });

  it('shows a navigation destination beside the origin', () => {
    void tray.confirm(request('navigate', { destination: 'https://b.example' }), 1000, new AbortController().signal);
    expect(heading()).toBe('Demo wants to take the tab from app.example to b.example');
  });

  it('queues: one card at a time, oldest first, saying how many wait', async () => {
    const first = tray.confirm(request('click'), 120_000, new AbortController().signal);
    const second = tray.confirm(request('type'), 120_000, new AbortController().signal);
    const third = tray.confirm(request('navigate'), 120_000, new AbortController().signal);
    expect(cards()).toHaveLength(1);
    expect(heading()).toMatch(/wants to click/);
    expect(cards()[0]!.querySelector('.queue-count')!.textContent).toBe('2 more waiting.');
    waitUntilArmed();
    button('Deny').click();
    await expect(first).resolves.toBe('deny');
    expect(heading()).toMatch(/wants to type/);
    expect(cards()[0]!.querySelector('.queue-count')!.textContent).toBe('1 more waiting.');
    waitUntilArmed();
    button('Allow once').click();
    await expect(second).resolves.toBe('once');
    expect(cards()[0]!.querySelector('.queue-count')!.textContent).toBe('');
    waitUntilArmed();
    button('Allow once').click();
    await expect(third).resolves.toBe('once');
    expect(tray.waiting).toBe(0);
  });

  it('times out as a denial, counting only while the card is on screen', async () => {
    const first = tray.confirm(request('click'), 10_000, new AbortController().signal);
    const second = tray.confirm(request('type'), 10_000, new AbortController().signal);
    expect(cards()[0]!.querySelector('.countdown')!.textContent).toBe(
      'Denied automatically in 10 s unless you answer.',
    );
    vi.advanceTimersByTime(4_000);
    expect(cards()[0]!.querySelector('.countdown')!.textContent).toBe('Denied automatically in 6 s unless you answer.');
    vi.advanceTimersByTime(6_000);
    await expect(first).resolves.toBe('timeout');
    // The second card has had its full time from the moment it appeared.
    vi.advanceTimersByTime(9_000);
    expect(heading()).toMatch(/wants to type/);
    vi.advanceTimersByTime(1_000);
    await expect(second).resolves.toBe('timeout');
    expect(cards()).toHaveLength(0);
  });

  it('withdraws a cancelled call’s card, shown or queued', async () => {
    const shown = new AbortController();
    const queued = new AbortController();
    const first = tray.confirm(request('click'), 120_000, shown.signal);
    const second = tray.confirm(request('type'), 120_000, queued.signal);
    const third = tray.confirm(request('navigate'), 120_000, new AbortController().signal);
    queued.abort();
    await expect(second).resolves.toBe('cancelled');
    expect(cards()[0]!.querySelector('.queue-count')!.textContent).toBe('1 more waiting.');
    shown.abort();
    await expect(first).resolves.toBe('cancelled');
    expect(heading()).toMatch(/wants to open another page/);
    tray.withdrawAll();
    await expect(third).resolves.toBe('cancelled');
    expect(cards()).toHaveLength(0);
    const late = new AbortController();
    late.abort();
    await expect(tray.confirm(request('click'), 1000, late.signal)).resolves.toBe('cancelled');
    expect(cards()).toHaveLength(0);
  });

  it('is keyboard-operable: Escape denies, and focus moves to the next card', async () => {
    const first = tray.confirm(request('click'), 120_000, new AbortController().signal);
    const second = tray.confirm(request('type'), 120_000, new AbortController().signal);
    expect(document.activeElement).toBe(cards()[0]);
    cards()[0]!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await expect(first).resolves.toBe('deny');
    expect(document.activeElement).toBe(cards()[0]);
    expect(heading()).toMatch(/wants to type/);
    waitUntilArmed();
    button('Allow once').focus();
    button('Allow once').click();
    await expect(second).resolves.toBe('once');
  });

  it('names the tab by its full URL and each target by the role and name the page gave it', () => {
    void tray.confirm(
      request('fill_form', {
        url: 'https://app.example/projects/42/settings?tab=danger',
        args: {
          fields: [
            { ref: 'e45', value: 'x' },
            { selector: '#gone', value: 'y' },
          ],
        },
        targets: [
          { target: 'e45', element: { role: 'button', name: 'Delete project' } },
          { target: 'e46', element: { role: 'generic', name: '' } },
          { target: '#gone' },
        ],
      }),
      120_000,
      new AbortController().signal,
    );
    const card = cards()[0]!;
    expect(card.querySelector('.tab-url')!.textContent).toBe(
      'Tab: https://app.example/projects/42/settings?tab=danger',
    );
    expect([...card.querySelectorAll('.targets li')].map((item) => item.textContent)).toEqual([
      'e45 button "Delete project"',
      'e46 generic',
      '#gone element not found — the action will fail',
    ]);
    expect(card.querySelector('.targets ul')!.getAttribute('aria-label')).toBe('Acts on');
    const describedBy = card.getAttribute('aria-describedby')!.split(' ');
    expect(describedBy.map((id) => document.getElementById(id)?.className)).toEqual([
      'tab-url',
      'targets',
      'args',
      'countdown',
    ]);
  });

  it('shows no tab or target lines for a call that has none', () => {
    void tray.confirm(request('new_tab', { args: { url: 'https://b.example' } }), 1000, new AbortController().signal);
    expect(cards()[0]!.querySelector('.tab-url')).toBeNull();
    expect(cards()[0]!.querySelector('.targets')).toBeNull();
  });

  it('ignores every button for a moment after a card appears, then arms it where tests and assistive tech can see', async () => {
    const first = tray.confirm(request('click'), 120_000, new AbortController().signal);
    const card = cards()[0]!;
    expect(card.dataset.armed).toBe('false');
    expect(
      ['Allow once', 'Allow for this site', 'Deny'].map((name) => button(name).getAttribute('aria-disabled')),
    ).toEqual(['true', 'true', 'true']);
    button('Allow once').click();
    button('Deny').click();
    vi.advanceTimersByTime(ARM_DELAY_MS - 1);
    button('Allow once').click();
    expect(tray.waiting).toBe(1);
    vi.advanceTimersByTime(1);
    expect(card.dataset.armed).toBe('true');
    expect(button('Allow once').hasAttribute('aria-disabled')).toBe(false);
    button('Allow once').click();
    await expect(first).resolves.toBe('once');
  });

  it('does not let a double click that answered one card answer the card queued behind it', async () => {
    const first = tray.confirm(request('click'), 120_000, new AbortController().signal);
    const second = tray.confirm(request('type'), 120_000, new AbortController().signal);
    waitUntilArmed();
    button('Allow once').click();
    await expect(first).resolves.toBe('once');
    // The second click of the double click lands on the next card, in the same place.
    button('Allow once').dispatchEvent(new Event('pointerdown', { bubbles: true }));
    button('Allow once').click();
    expect(heading()).toMatch(/wants to type/);
    // A press that began before the card was armed does not count when it ends after.
    button('Allow once').dispatchEvent(new Event('pointerdown', { bubbles: true }));
    waitUntilArmed();
    button('Allow once').click();
    expect(tray.waiting).toBe(1);
    button('Allow once').dispatchEvent(new Event('pointerdown', { bubbles: true }));
    button('Allow once').click();
    await expect(second).resolves.toBe('once');
  });

  it('ignores Enter held over from the previous card, and answers to the keyboard once armed', async () => {
    const first = tray.confirm(request('click'), 120_000, new AbortController().signal);
    const second = tray.confirm(request('type'), 120_000, new AbortController().signal);
    waitUntilArmed();
    button('Allow once').focus();
    button('Allow once').click();
    await expect(first).resolves.toBe('once');
    // Focus went to the new card, not to its "Allow once".
    expect(document.activeElement).toBe(cards()[0]);
    const press = (key: string) =>
      button('Allow once').dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
    button('Allow once').focus();
    press('Enter');
    button('Allow once').click();
    expect(tray.waiting).toBe(1);
    waitUntilArmed();
    press('Enter');
    button('Allow once').click();
    await expect(second).resolves.toBe('once');
  });

  it('lets Escape deny at once: a denial is never the wrong answer to take by surprise', async () => {
    const first = tray.confirm(request('click'), 120_000, new AbortController().signal);
    expect(cards()[0]!.dataset.armed).toBe('false');
    cards()[0]!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await expect(first).resolves.toBe('deny');
  });

  it('never takes focus from a text field the user is typing in', () => {
    const box = document.createElement('textarea');
    document.body.append(box);
    box.focus();
    void tray.confirm(request('click'), 120_000, new AbortController().signal);
    expect(document.activeElement).toBe(box);
  });
});
