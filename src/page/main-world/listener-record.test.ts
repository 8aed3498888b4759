/**
 * The main-world listener record and the question the page agent asks it, in a jsdom window where
 * both worlds are one: what is recorded, that listeners behave as before, and that a page script
 * can neither ask the record nor get the question's event type, in either order the two content
 * scripts run.
 */
import { JSDOM } from 'jsdom';
import { describe, expect, it } from 'vitest';
import { HELLO_EVENT, LISTENER_QUERY_KEY, READY_EVENT, listenerQuery, offerListenerQuery } from '../listener-channel';
import { installListenerRecord } from './listener-record';

type TestWindow = Window & typeof globalThis;

function page(order: 'main first' | 'isolated first' = 'main first') {
  const { window } = new JSDOM('<!doctype html><body><div id="a"></div><div id="b"></div></body>');
  const win = window as unknown as TestWindow;
  const isolated = {};
  if (order === 'main first') installListenerRecord(win);
  offerListenerQuery(win.document, isolated);
  if (order === 'isolated first') installListenerRecord(win);
  const a = win.document.getElementById('a')!;
  const b = win.document.getElementById('b')!;
  return { win, a, b, isolated, ask: () => listenerQuery(win.document, isolated) };
}

describe('the listener record', () => {
  for (const order of ['main first', 'isolated first'] as const) {
    it(`records an element's own click listeners, and forgets removed ones (${order})`, () => {
      const { a, b, ask } = page(order);
      expect(ask()).toBeUndefined();
      const onClick = () => undefined;
      a.addEventListener('click', onClick);
      b.addEventListener('scroll', onClick);
      expect(ask()?.(a)).toBe(true);
      expect(ask()?.(b)).toBe(false);
      a.removeEventListener('click', onClick, { capture: true });
      expect(ask()?.(a)).toBe(true);
      a.removeEventListener('click', onClick);
      expect(ask()).toBeUndefined();
    });
  }

  it('records handler properties, and forgets one set back to null', () => {
    const { a, ask } = page();
    a.onpointerdown = () => undefined;
    expect(ask()?.(a)).toBe(true);
    a.onpointerdown = null;
    expect(ask()).toBeUndefined();
  });

  it('leaves listeners working as before', () => {
    const { win, a } = page();
    const calls: unknown[] = [];
    a.addEventListener(
      'click',
      function (this: unknown, event) {
        calls.push([this === a, event.type]);
      },
      { once: true },
    );
    a.onclick = (event) => calls.push(['property', event.type]);
    a.dispatchEvent(new win.MouseEvent('click'));
    a.dispatchEvent(new win.MouseEvent('click'));
    expect(calls).toEqual([
      [true, 'click'],
      ['property', 'click'],
      ['property', 'click'],
    ]);
    expect(a.onclick).toBeTypeOf('function');
  });

  it('cannot be asked by the page, nor made to give the question away', () => {
    const { win, a, isolated, ask } = page();
    a.addEventListener('click', () => undefined);
    const offered: unknown[] = [];
    win.document.addEventListener(HELLO_EVENT, (event) => offered.push((event as CustomEvent).detail));
    // A page that asks for the offer again, or offers a question of its own, gets nowhere.
    win.document.dispatchEvent(new win.Event(READY_EVENT));
    win.document.dispatchEvent(new win.CustomEvent(HELLO_EVENT, { detail: 'page-question', cancelable: true }));
    expect(offered).toEqual(['page-question']);
    expect(a.dispatchEvent(new win.Event('page-question', { cancelable: true, composed: true }))).toBe(true);
    // The agent's question still works, and even a page that guessed its type would not see it.
    const question = (isolated as Record<string, string>)[LISTENER_QUERY_KEY]!;
    const seen: string[] = [];
    win.addEventListener(question, () => seen.push('window'), true);
    a.addEventListener(question, () => seen.push('element'));
    expect(ask()?.(a)).toBe(true);
    expect(seen).toEqual([]);
  });
});
