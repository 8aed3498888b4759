// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { pressTargetInLabel } from './label-stand-in';

describe('pressTargetInLabel', () => {
  it('clicks the label itself when the pointer is on a link or another control inside it', () => {
    document.body.innerHTML = `
      <label><input type="checkbox"><span class="box"></span> I accept the <a href="/terms">terms</a>
        <button type="button">?</button></label>`;
    const label = document.querySelector('label')!;
    const box = document.querySelector('input')!;
    expect(pressTargetInLabel(label, box, document.querySelector('a')!)).toBe(label);
    expect(pressTargetInLabel(label, box, document.querySelector('button')!)).toBe(label);
    expect(pressTargetInLabel(label, box, document.querySelector('.box')!)).toBe(document.querySelector('.box'));
    expect(pressTargetInLabel(label, box, box)).toBe(box);
  });
});
