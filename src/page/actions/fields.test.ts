// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { isSecretField } from '../secret-field';
import { fieldFor, fieldKind, setNativeValue } from './fields';
import { acceptsValue, applyOptions, chooseOptions, parseChecked } from './options';

const html = (markup: string) => {
  document.body.innerHTML = markup;
  return document.body.firstElementChild!;
};

describe('fieldKind and fieldFor', () => {
  it('sorts inputs by how a value reaches them', () => {
    const kinds = ['text', 'email', 'number', 'date', 'color', 'range', 'checkbox', 'radio', 'file', 'submit'].map(
      (type) => fieldKind(html(`<input type="${type}">`)),
    );
    expect(kinds).toEqual([
      'text',
      'text',
      'text',
      'value',
      'value',
      'value',
      'checkable',
      'checkable',
      'file',
      'button',
    ]);
    expect(fieldKind(html('<textarea></textarea>'))).toBe('text');
    expect(fieldKind(html('<select></select>'))).toBe('select');
    expect(fieldKind(html('<div></div>'))).toBe('other');
  });

  it('finds the field behind a label or inside a single-field wrapper', () => {
    const label = html('<label>Name <input id="n"></label>');
    expect(fieldFor(label)).toBe(document.getElementById('n'));
    const wrapper = html('<div class="field"><span>Email</span><input id="e" type="email"></div>');
    expect(fieldFor(wrapper)).toBe(document.getElementById('e'));
    const two = html('<div><input><input></div>');
    expect(fieldFor(two)).toBe(two);
  });

  it('knows password and credential fields', () => {
    expect(isSecretField(html('<input type="password">'))).toBe(true);
    expect(isSecretField(html('<input type="text" autocomplete="current-password">'))).toBe(true);
    expect(isSecretField(html('<input autocomplete="cc-number">'))).toBe(true);
    expect(isSecretField(html('<input type="text" autocomplete="username">'))).toBe(false);
  });

  it('sets a value through the prototype setter, past an own-property override', () => {
    const input = html('<input>') as HTMLInputElement;
    let intercepted = '';
    // What React's value tracker does: an own `value` property on the element.
    Object.defineProperty(input, 'value', {
      configurable: true,
      get: () => intercepted,
      set: (v: string) => (intercepted = v),
    });
    setNativeValue(input, 'typed');
    expect(intercepted).toBe('');
    delete (input as { value?: string }).value;
    expect(input.value).toBe('typed');
  });
});

describe('options', () => {
  let select: HTMLSelectElement;
  beforeEach(() => {
    select = html(`<select>
      <option value="fr">France</option>
      <option value="de">  Germany </option>
      <option value="jp" disabled>Japan</option>
      <optgroup label="Far" disabled><option value="nz">New Zealand</option></optgroup>
    </select>`) as HTMLSelectElement;
  });

  it('finds options by value, or by label in any case and spacing', () => {
    expect(chooseOptions(select, ['de'], 'value')[0]!.value).toBe('de');
    expect(chooseOptions(select, ['germany'], 'label')[0]!.value).toBe('de');
    expect(chooseOptions(select, ['France'], 'label')[0]!.value).toBe('fr');
  });

  it('refuses unknown and disabled options, listing the valid ones', () => {
    expect(() => chooseOptions(select, ['Spain'], 'label')).toThrow(/"France" \(value "fr"\)/);
    expect(() => chooseOptions(select, ['jp'], 'value')).toThrow(/disabled/);
    expect(() => chooseOptions(select, ['nz'], 'value')).toThrow(/disabled/);
    expect(() => chooseOptions(select, ['fr', 'de'], 'value')).toThrow(/takes one option/);
  });

  it('selects and tells the page with input and change, but only when something changed', () => {
    const seen: string[] = [];
    for (const type of ['input', 'change']) select.addEventListener(type, () => seen.push(type));
    expect(applyOptions(select, chooseOptions(select, ['de'], 'value'))).toBe('"Germany"');
    expect(select.value).toBe('de');
    expect(seen).toEqual(['input', 'change']);
    applyOptions(select, chooseOptions(select, ['de'], 'value'));
    expect(seen).toEqual(['input', 'change']);
  });

  it('reads yes/no values for checkboxes and refuses anything else', () => {
    const box = html('<input type="checkbox">') as HTMLInputElement;
    expect(['true', 'Yes', 'on', 'checked', '1'].map((v) => parseChecked(v, box))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['false', 'no', 'off', 'unchecked', '0', ''].every((v) => !parseChecked(v, box))).toBe(true);
    expect(parseChecked(false, box)).toBe(false);
    expect(() => parseChecked('maybe', box)).toThrow(/true or false/);
  });

  it('knows which values colour, range and number inputs take', () => {
    expect(acceptsValue(html('<input type="color">') as HTMLInputElement, '#12abEF')).toBe(true);
    expect(acceptsValue(html('<input type="color">') as HTMLInputElement, 'red')).toBe(false);
    expect(acceptsValue(html('<input type="range">') as HTMLInputElement, '7')).toBe(true);
    expect(acceptsValue(html('<input type="range">') as HTMLInputElement, 'loud')).toBe(false);
    expect(acceptsValue(html('<input type="date">') as HTMLInputElement, '')).toBe(true);
  });
});
