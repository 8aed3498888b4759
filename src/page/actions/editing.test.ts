// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { clearField, deleteText, insertText } from './editing';
import { submitFromField } from './submit';

/** jsdom has no editing commands, so these run the fallback the page gets when execCommand fails. */
function field(markup = '<input>'): HTMLInputElement {
  document.body.innerHTML = markup;
  const input = document.querySelector('input')!;
  input.focus();
  return input;
}

describe('text editing without execCommand', () => {
  it('inserts at the caret with beforeinput and input events', () => {
    const input = field();
    const events: string[] = [];
    input.addEventListener('beforeinput', (e) => events.push(`before:${(e as InputEvent).data}`));
    input.addEventListener('input', (e) => events.push(`input:${(e as InputEvent).inputType}`));
    insertText(input, 'a');
    insertText(input, 'b');
    input.setSelectionRange(1, 1);
    insertText(input, '-');
    expect(input.value).toBe('a-b');
    expect(events).toEqual([
      'before:a',
      'input:insertText',
      'before:b',
      'input:insertText',
      'before:-',
      'input:insertText',
    ]);
  });

  it('lets the page cancel an insertion in beforeinput', () => {
    const input = field();
    input.addEventListener('beforeinput', (e) => e.preventDefault());
    insertText(input, 'x');
    expect(input.value).toBe('');
  });

  it('deletes backwards and forwards, and clears', () => {
    const input = field('<input value="abc">');
    input.setSelectionRange(3, 3);
    deleteText(input);
    expect(input.value).toBe('ab');
    input.setSelectionRange(0, 0);
    deleteText(input, true);
    expect(input.value).toBe('b');
    clearField(input);
    expect(input.value).toBe('');
  });
});

describe('implicit submission', () => {
  it('submits through the default button, running its click handlers', () => {
    document.body.innerHTML = '<form><input name="q"><button type="submit">Go</button></form>';
    const form = document.querySelector('form')!;
    const seen: string[] = [];
    document.querySelector('button')!.addEventListener('click', () => seen.push('click'));
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      seen.push('submit');
    });
    expect(submitFromField(document.querySelector('input')!)).toBe('submitted the form');
    expect(seen).toEqual(['click', 'submit']);
  });

  it('says when the form did not submit because of an invalid field', () => {
    document.body.innerHTML = '<form><input name="q" required aria-label="Query"><button>Go</button></form>';
    const result = submitFromField(document.querySelector('input')!);
    expect(result).toMatch(/the form did not submit: <input> "Query" is invalid/);
  });

  it('does nothing outside a form', () => {
    document.body.innerHTML = '<input>';
    expect(submitFromField(document.querySelector('input')!)).toBeUndefined();
  });
});
