import { describe, expect, it } from 'vitest';
import {
  headOfLine,
  indentOfLine,
  isTextLine,
  labelOfLine,
  outdented,
  refOfLine,
  renderLine,
  renderTextLine,
  roleOfLine,
  textOfLine,
  withoutRefs,
} from './snapshot-line';

describe('snapshot lines', () => {
  it('reads back what it renders', () => {
    const line = renderLine({
      depth: 2,
      role: 'checkbox',
      name: 'Remember me',
      ref: 'f3e12',
      draggable: true,
      states: ' [checked]',
    });
    expect(line).toBe('    - checkbox "Remember me" [f3e12] [draggable] [checked]');
    expect(indentOfLine(line)).toBe(4);
    expect(roleOfLine(line)).toBe('checkbox');
    expect(refOfLine(line)).toBe('f3e12');
    expect(headOfLine(line)).toBe('- checkbox "Remember me"');
    expect(labelOfLine(line)).toBe('checkbox "Remember me"');
    expect(withoutRefs(line)).toBe('    - checkbox "Remember me" [draggable] [checked]');
    expect(textOfLine(renderTextLine(1, 'Hello [e1]'))).toBe('Hello [e1]');
  });

  it('writes a run of text as a quoted item that reads back as text, not as an element', () => {
    const line = renderTextLine(2, 'Card 1 body text');
    expect(line).toBe('    - "Card 1 body text"');
    expect(isTextLine(line)).toBe(true);
    expect(roleOfLine(line)).toBe('text');
    expect(textOfLine(line)).toBe('Card 1 body text');
    expect(indentOfLine(line)).toBe(4);
    expect(refOfLine(line)).toBeUndefined();
    expect(labelOfLine(line)).toBeUndefined();
    expect(headOfLine(line)).toBe('- "Card 1 body text"');
    expect(isTextLine('  - button "Pay" [e1]')).toBe(false);
    expect(roleOfLine('  - button "Pay" [e1]')).toBe('button');
  });

  it('takes a wrapper line out one level', () => {
    expect(outdented('      - link "Open 1" [e1]')).toBe('    - link "Open 1" [e1]');
    expect(outdented('- link "Open 1" [e1]')).toBe('- link "Open 1" [e1]');
  });

  it('renders an empty contenteditable value once given, and leaves out an empty name', () => {
    expect(renderLine({ depth: 0, role: 'textbox', name: '', ref: 'e1', value: '' })).toBe('- textbox [e1] [value=""]');
    expect(renderLine({ depth: 1, role: 'iframe' })).toBe('  - iframe');
    expect(labelOfLine('- [e1]')).toBeUndefined();
  });
});
