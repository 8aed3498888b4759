import { describe, expect, it } from 'vitest';
import { characterKey, describeKeyPress, insertsText, KeyNameError, namedKey, parseKeyCombo } from './keyboard';

describe('characterKey', () => {
  it('fills key, code and keyCode for letters, digits and punctuation as a US keyboard does', () => {
    expect(characterKey('a')).toMatchObject({ key: 'a', code: 'KeyA', keyCode: 65, text: 'a' });
    expect(characterKey('Q')).toMatchObject({ key: 'Q', code: 'KeyQ', keyCode: 81, shifted: true });
    expect(characterKey('7')).toMatchObject({ key: '7', code: 'Digit7', keyCode: 55 });
    expect(characterKey('@')).toMatchObject({ key: '@', code: 'Digit2', keyCode: 50, shifted: true });
    expect(characterKey('/')).toMatchObject({ key: '/', code: 'Slash', keyCode: 191 });
    expect(characterKey('?')).toMatchObject({ key: '?', code: 'Slash', keyCode: 191, shifted: true });
    expect(characterKey(' ')).toMatchObject({ key: ' ', code: 'Space', keyCode: 32, text: ' ' });
  });

  it('types characters no US key has as text without a code', () => {
    expect(characterKey('é')).toEqual({ key: 'é', code: '', keyCode: 0, text: 'é' });
  });

  it('treats a newline as Enter', () => {
    expect(characterKey('\n')).toMatchObject({ key: 'Enter', code: 'Enter', keyCode: 13 });
  });
});

describe('namedKey', () => {
  it('knows named keys in any case and their common aliases', () => {
    expect(namedKey('Enter')).toMatchObject({ key: 'Enter', keyCode: 13 });
    expect(namedKey('enter')).toMatchObject({ key: 'Enter', keyCode: 13 });
    expect(namedKey('Esc')).toMatchObject({ key: 'Escape', code: 'Escape', keyCode: 27 });
    expect(namedKey('Space')).toMatchObject({ key: ' ', code: 'Space' });
    expect(namedKey('down')).toMatchObject({ key: 'ArrowDown', keyCode: 40 });
    expect(namedKey('F5')).toEqual({ key: 'F5', code: 'F5', keyCode: 116 });
    expect(namedKey('f12')).toMatchObject({ key: 'F12', keyCode: 123 });
  });

  it('returns undefined for words that name no key', () => {
    expect(namedKey('Banana')).toBeUndefined();
    expect(namedKey('F25')).toBeUndefined();
  });
});

describe('parseKeyCombo', () => {
  it('splits modifiers from the key', () => {
    const press = parseKeyCombo('Control+Shift+K');
    expect(press.modifiers).toEqual({ ctrlKey: true, shiftKey: true, altKey: false, metaKey: false });
    expect(press.definition).toMatchObject({ key: 'K', code: 'KeyK', keyCode: 75 });
  });

  it('reads the plus key', () => {
    expect(parseKeyCombo('+').definition).toMatchObject({ key: '+', code: 'Equal' });
    const press = parseKeyCombo('Control++');
    expect(press.modifiers.ctrlKey).toBe(true);
    expect(press.definition.key).toBe('+');
  });

  it('makes Shift+letter an upper-case letter and marks shifted characters with Shift', () => {
    expect(parseKeyCombo('Shift+a').definition).toMatchObject({ key: 'A', text: 'A' });
    expect(parseKeyCombo('!').modifiers.shiftKey).toBe(true);
  });

  it('maps ControlOrMeta to the platform key', () => {
    expect(parseKeyCombo('ControlOrMeta+a', 'mac').modifiers.metaKey).toBe(true);
    expect(parseKeyCombo('ControlOrMeta+a', 'other').modifiers.ctrlKey).toBe(true);
  });

  it('refuses unknown modifiers and keys with a message that lists valid names', () => {
    expect(() => parseKeyCombo('Hyper+a')).toThrow(KeyNameError);
    expect(() => parseKeyCombo('Banana')).toThrow(/Enter, Tab, Escape/);
    expect(() => parseKeyCombo('  ')).toThrow(KeyNameError);
  });
});

describe('insertsText and describeKeyPress', () => {
  it('knows which presses type text', () => {
    expect(insertsText(parseKeyCombo('a'))).toBe(true);
    expect(insertsText(parseKeyCombo('Control+a'))).toBe(false);
    expect(insertsText(parseKeyCombo('Enter'))).toBe(false);
    expect(insertsText(parseKeyCombo('Tab'))).toBe(false);
  });

  it('describes presses compactly', () => {
    expect(describeKeyPress(parseKeyCombo('Control+Shift+k'))).toBe('Control+Shift+K');
    expect(describeKeyPress(parseKeyCombo('space'))).toBe('Space');
    expect(describeKeyPress(parseKeyCombo('?'))).toBe('?');
  });
});
