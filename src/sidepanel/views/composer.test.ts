// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { Composer, mentionBeingTyped } from './composer';

// jsdom does no layout.
Element.prototype.scrollIntoView = () => undefined;

function composer(
  names: string[] = ['Alpha', 'Alpine', 'Beta Max'],
  commands = [{ name: 'review', description: 'Review the change', agentName: 'Alpha' }],
) {
  const sent: string[] = [];
  const c = new Composer({
    initialDraft: '',
    onSend: (text) => sent.push(text),
    onStop: () => undefined,
    onRetry: () => undefined,
    onClear: () => undefined,
    onDraft: () => undefined,
    commands: () => commands,
    agentNames: () => names,
  });
  document.body.replaceChildren(c.element);
  const type = (value: string) => {
    c.input.value = value;
    c.input.setSelectionRange(value.length, value.length);
    c.input.dispatchEvent(new Event('input'));
  };
  const key = (key: string) => c.input.dispatchEvent(new KeyboardEvent('keydown', { key, cancelable: true }));
  const options = () => [...c.element.querySelectorAll('[role=option] .command-name')].map((o) => o.textContent);
  return { c, sent, type, key, options };
}

describe('mentionBeingTyped', () => {
  it('finds the @name before the caret, not inside an address', () => {
    expect(mentionBeingTyped('hi @Al', 6)).toEqual({ from: 3, prefix: 'Al' });
    expect(mentionBeingTyped('@', 1)).toEqual({ from: 0, prefix: '' });
    expect(mentionBeingTyped('mail bob@ex', 11)).toBeUndefined();
    expect(mentionBeingTyped('@Alpha done', 11)).toBeUndefined();
  });
});

describe('composer completion', () => {
  it('completes agent names after @, keyboard first', () => {
    const { c, type, key, options, sent } = composer();
    type('ask @al');
    expect(options()).toEqual(['@Alpha', '@Alpine']);
    key('ArrowDown');
    key('Enter');
    expect(c.input.value).toBe('ask @Alpine ');
    expect(sent).toEqual([]);
    key('Enter');
    expect(sent).toEqual(['ask @Alpine']);
  });

  it('completes a name with a space in it, and offers nothing for an e-mail address', () => {
    const { c, type, key, options } = composer();
    type('@be');
    expect(options()).toEqual(['@Beta Max']);
    key('Tab');
    expect(c.input.value).toBe('@Beta Max ');
    type('write to bob@al');
    expect(options()).toEqual([]);
  });

  it('still lists slash commands at the start', () => {
    const { type, options } = composer();
    type('/re');
    expect(options()).toEqual(['/review']);
  });
});

describe('a "/" when no agent offers commands', () => {
  it('says none are offered, and Enter still sends', () => {
    const { c, sent, type, key } = composer(['Alpha'], []);
    type('/');
    const list = c.element.querySelector<HTMLElement>('#command-list')!;
    expect(list.hidden).toBe(false);
    expect(list.textContent).toBe('No connected agent offers commands.');
    type('/x');
    expect(list.hidden).toBe(true);
    type('/');
    key('Enter');
    expect(sent).toEqual(['/']);
  });
});
