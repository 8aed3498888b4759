// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { PendingText } from './pending-text';

const pieces = (pending: PendingText) => [...pending.element.children].map((piece) => piece.textContent ?? '');

const lines = (count: number, from = 0) =>
  Array.from({ length: count }, (_, n) => `line ${n + from} of a reply that arrived all at once\n`).join('');

describe('PendingText', () => {
  it('shows the text from an offset to the end, in pieces that end at line breaks', () => {
    const text = lines(200);
    const pending = new PendingText();
    pending.show(text, 0, 100);
    expect(pending.element.textContent).toBe(text.slice(100));
    const shown = pieces(pending);
    expect(shown.length).toBeGreaterThan(2);
    for (const piece of shown.slice(0, -1)) {
      expect(piece.endsWith('\n')).toBe(true);
      expect(piece.length).toBeLessThanOrEqual(2_048);
    }
  });

  it('keeps the pieces it can: new text grows the last one, formatted text leaves from the front', () => {
    const text = lines(200);
    const pending = new PendingText();
    pending.show(text.slice(0, 3_000), 0, 0);
    const [first, second] = [...pending.element.children];
    const firstLength = first!.textContent!.length;
    // The reply grows; the tail a renderer keeps may start later in the whole text.
    pending.show(text.slice(1_000), 1_000, 1_000 + 10);
    expect(pending.element.textContent).toBe(text.slice(1_010));
    expect(first!.parentNode !== null).toBe(firstLength > 1_010);
    expect(second!.parentNode !== null).toBe(true);
    pending.show(text.slice(1_000), 1_000, text.length - 5);
    expect(pending.element.textContent).toBe(text.slice(-5));
    expect(second!.parentNode !== null).toBe(false);
    pending.show(text.slice(1_000), 1_000, text.length);
    expect(pending.shown).toBe(false);
    expect(pending.element.childNodes.length).toBe(0);
  });

  it('grows a line that arrives in parts within one piece', () => {
    const pending = new PendingText();
    let text = '';
    for (const part of ['A line ', 'that comes ', 'in parts', '\nand the next']) {
      text += part;
      pending.show(text, 0, 0);
    }
    expect(pieces(pending)).toEqual(['A line that comes in parts\nand the next']);
  });

  it('cuts a line longer than a piece after a space, and a text with no spaces never inside a surrogate pair', () => {
    const words = 'word '.repeat(1_000);
    const pending = new PendingText();
    pending.show(words, 0, 0);
    expect(pieces(pending).join('')).toBe(words);
    for (const piece of pieces(pending).slice(0, -1)) expect(piece.endsWith(' ')).toBe(true);

    const faces = '😀'.repeat(1_500);
    const solid = new PendingText();
    solid.show(faces, 0, 0);
    expect(pieces(solid).join('')).toBe(faces);
    for (const piece of pieces(solid)) expect(piece.length % 2).toBe(0);
  });

  it('starts over when asked for text before what it shows', () => {
    const text = lines(50);
    const pending = new PendingText();
    pending.show(text, 0, 500);
    pending.show(text, 0, 100);
    expect(pending.element.textContent).toBe(text.slice(100));
  });
});
