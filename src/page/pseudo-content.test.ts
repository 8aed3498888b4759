// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { withLabelIndex } from './label-index';
import { styleSheetsCanAddText } from './pseudo-content';

function withStyle(css: string): void {
  const style = document.createElement('style');
  style.textContent = css;
  document.head.append(style);
}

describe('styleSheetsCanAddText', () => {
  afterEach(() => {
    document.head.innerHTML = '';
  });

  it('is false without pseudo-element content, and for empty clearfix content', () => {
    withStyle('p { color: red } .clearfix::after { content: ""; display: table }');
    expect(styleSheetsCanAddText(document)).toBe(false);
  });

  it('is true when ::before or ::after can add text, inside @media too', () => {
    withStyle('@media screen { .icon::before { content: "★" } }');
    expect(styleSheetsCanAddText(document)).toBe(true);
  });
});

describe('withLabelIndex', () => {
  it('answers labels from one pass and puts the original getter back', () => {
    document.body.innerHTML =
      '<label for="a">First</label><input id="a"><label>Second <input id="b"></label><input type="hidden" id="c">';
    const original = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'labels');
    const seen = withLabelIndex(window, () => ({
      a: [...(document.getElementById('a') as HTMLInputElement).labels!].map((label) => label.textContent),
      b: [...(document.getElementById('b') as HTMLInputElement).labels!].map((label) => label.textContent?.trim()),
      c: (document.getElementById('c') as HTMLInputElement).labels,
    }));
    expect(seen).toEqual({ a: ['First'], b: ['Second'], c: null });
    expect(Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'labels')).toEqual(original);
  });
});
