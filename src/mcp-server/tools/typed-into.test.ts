import { describe, expect, it } from 'vitest';
import { browserTools } from './index';
import { fillForm } from './fill-form';
import { type } from './type';

describe('tools declare the fields they type into', () => {
  it('fill_form: every field given text, by ref or selector', () => {
    const args = fillForm.input.parse({
      fields: [
        { ref: 'e1', value: 'alice' },
        { selector: '#pw', value: 'correct horse' },
        { ref: 'f3e9', value: '123456' },
        { ref: 'e4', value: true },
      ],
      submit: true,
    });
    expect(fillForm.typedInto!(args)).toEqual([{ ref: 'e1' }, { selector: '#pw' }, { ref: 'f3e9' }]);
  });

  it('type: its one field', () => {
    expect(type.typedInto!(type.input.parse({ ref: 'e2', text: 'x' }))).toEqual([{ ref: 'e2' }]);
    expect(type.typedInto!(type.input.parse({ selector: '#q', text: 'x' }))).toEqual([{ selector: '#q' }]);
  });

  it('no other tool types a value into the page', () => {
    const typing = browserTools.filter((tool) => tool.typedInto).map((tool) => tool.name);
    expect(typing.sort()).toEqual(['fill_form', 'type']);
  });
});
