import { describe, expect, it } from 'vitest';
import { fieldsOf, validateEntries, type ElicitationField } from './elicitation-form';

const schema = {
  type: 'object' as const,
  properties: {
    name: { type: 'string', title: 'Your name', minLength: 2, maxLength: 5 },
    code: { type: 'string', pattern: '^[A-Z]{3}$' },
    email: { type: 'string', format: 'email' },
    site: { type: 'string', format: 'uri' },
    day: { type: 'string', format: 'date' },
    at: { type: 'string', format: 'date-time' },
    seats: { type: 'integer', minimum: 1, maximum: 9, default: 2 },
    ratio: { type: 'number', minimum: 0, maximum: 1 },
    agree: { type: 'boolean', default: true },
    size: { type: 'string', enum: ['s', 'm'] },
    colour: { type: 'string', oneOf: [{ const: 'r', title: 'Red' }] },
    tags: { type: 'array', items: { type: 'string', enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
  },
  required: ['name', 'seats', 'size'],
};

function fields(): ElicitationField[] {
  const result = fieldsOf(schema as never);
  if (!('fields' in result)) throw new Error('expected fields');
  return result.fields;
}

describe('fieldsOf', () => {
  it('turns each property into a field of its kind, with its constraints', () => {
    const byName = Object.fromEntries(fields().map((field) => [field.name, field]));
    expect(byName.name).toEqual({
      name: 'name',
      label: 'Your name',
      required: true,
      kind: 'text',
      minLength: 2,
      maxLength: 5,
    });
    expect(byName.code).toMatchObject({ kind: 'text', pattern: '^[A-Z]{3}$', required: false, label: 'code' });
    expect(byName.seats).toMatchObject({ kind: 'number', integer: true, minimum: 1, maximum: 9, default: 2 });
    expect(byName.ratio).toMatchObject({ kind: 'number', integer: false });
    expect(byName.agree).toMatchObject({ kind: 'boolean', default: true });
    expect(byName.size).toMatchObject({
      kind: 'choice',
      options: [
        { value: 's', title: 's' },
        { value: 'm', title: 'm' },
      ],
    });
    expect(byName.colour).toMatchObject({ kind: 'choice', options: [{ value: 'r', title: 'Red' }] });
    expect(byName.tags).toMatchObject({ kind: 'multi', minItems: 1, maxItems: 2 });
  });

  it('refuses a schema it cannot show, naming the field', () => {
    expect(fieldsOf({ properties: { x: { type: 'object' } } } as never)).toEqual({
      problem: { key: 'elicitUnsupportedField', args: ['x', 'object'] },
    });
    expect(fieldsOf({ properties: { y: { type: 'string', pattern: '(' } } } as never)).toEqual({
      problem: { key: 'elicitBadPattern', args: ['y'] },
    });
    expect(fieldsOf({ properties: { z: { type: 'string', format: 'ipv4' } } } as never)).toMatchObject({
      problem: { key: 'elicitUnsupportedField' },
    });
  });

  it('has no fields for a schema without properties', () => {
    expect(fieldsOf(undefined)).toEqual({ fields: [] });
  });
});

describe('validateEntries', () => {
  const good = {
    name: 'Ann',
    code: 'ABC',
    email: 'ann@example.com',
    site: 'https://example.com/x',
    day: '2026-02-28',
    at: '2026-12-01T14:30:00Z',
    seats: ' 3 ',
    ratio: '0.5',
    agree: false,
    size: 'm',
    colour: '',
    tags: ['a', 'b'],
  };

  it('sends typed content for valid entries, leaving out empty optional fields', () => {
    expect(validateEntries(fields(), good)).toEqual({
      ok: true,
      content: {
        name: 'Ann',
        code: 'ABC',
        email: 'ann@example.com',
        site: 'https://example.com/x',
        day: '2026-02-28',
        at: '2026-12-01T14:30:00Z',
        seats: 3,
        ratio: 0.5,
        agree: false,
        size: 'm',
        tags: ['a', 'b'],
      },
    });
  });

  it('names every broken constraint', () => {
    const result = validateEntries(fields(), {
      name: 'A',
      code: 'abc',
      email: 'ann@',
      site: 'example.com',
      day: '2026-02-30',
      at: '2026-12-01 14:30',
      seats: '2.5',
      ratio: '1.5',
      size: 'xl',
      tags: ['a', 'b', 'c'],
    });
    expect(result).toEqual({
      ok: false,
      errors: {
        name: { key: 'elicitTooShort', args: ['2'] },
        code: { key: 'elicitPattern', args: ['^[A-Z]{3}$'] },
        email: { key: 'elicitFormatEmail', args: [] },
        site: { key: 'elicitFormatUri', args: [] },
        day: { key: 'elicitFormatDate', args: [] },
        at: { key: 'elicitFormatDateTime', args: [] },
        seats: { key: 'elicitNotInteger', args: [] },
        ratio: { key: 'elicitAboveMax', args: ['1'] },
        size: { key: 'elicitChoice', args: [] },
        tags: { key: 'elicitTooManyItems', args: ['2'] },
      },
    });
  });

  it('asks for required fields and counts characters, not UTF-16 units', () => {
    const result = validateEntries(fields(), { name: '😀😀😀😀😀', seats: '', size: '' });
    expect(result).toEqual({
      ok: false,
      errors: { seats: { key: 'elicitRequired', args: [] }, size: { key: 'elicitRequired', args: [] } },
    });
    expect(validateEntries(fields(), { name: 'abcdef', seats: '0', size: 's' })).toEqual({
      ok: false,
      errors: { name: { key: 'elicitTooLong', args: ['5'] }, seats: { key: 'elicitBelowMin', args: ['1'] } },
    });
  });

  it('refuses text that only looks like a number', () => {
    const [ratio] = fields().filter((field) => field.name === 'ratio');
    expect(validateEntries([ratio!], { ratio: '0x1' })).toEqual({
      ok: false,
      errors: { ratio: { key: 'elicitNotNumber', args: [] } },
    });
  });
});
