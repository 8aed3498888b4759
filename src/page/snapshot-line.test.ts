import { describe, expect, it } from 'vitest';
import {
  headOfLine,
  indentOfLine,
  labelOfLine,
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
      clickable: true,
      states: ' [checked]',
    });
    expect(line).toBe('    - checkbox "Remember me" [ref=f3e12] [clickable] [checked]');
    expect(indentOfLine(line)).toBe(4);
    expect(roleOfLine(line)).toBe('checkbox');
    expect(refOfLine(line)).toBe('f3e12');
    expect(headOfLine(line)).toBe('- checkbox "Remember me"');
    expect(labelOfLine(line)).toBe('checkbox "Remember me"');
    expect(withoutRefs(line)).toBe('    - checkbox "Remember me" [clickable] [checked]');
    expect(textOfLine(renderTextLine(1, 'Hello [ref=e1]'))).toBe('Hello [ref=e1]');
  });

  it('renders an empty contenteditable value once given, and leaves out an empty name', () => {
    expect(renderLine({ depth: 0, role: 'textbox', name: '', ref: 'e1', value: '' })).toBe(
      '- textbox [ref=e1] [value=""]',
    );
    expect(renderLine({ depth: 1, role: 'iframe' })).toBe('  - iframe');
    expect(labelOfLine('- [ref=e1]')).toBeUndefined();
  });
});
