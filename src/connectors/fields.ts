/**
 * Declarative extraction: what to read from a page, as data. Code connectors and recipes share
 * these shapes; the page runs them through `extractInPage`, so no connector code enters the page.
 */
import { z } from 'zod';
import { HIDDEN_VALUE, SECRET_AUTOCOMPLETE_TOKENS } from '../page/secret-field';

const Selector = z.string().min(1).max(500);

export const FieldPick = z
  .object({
    selector: Selector.optional().describe(
      'CSS selector inside the row (or the page); omitted means the row element itself',
    ),
    label: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe(
        'Key/value layouts: among the elements matching `selector`, the one whose text is this label; its next sibling is read',
      ),
    pick: z
      .enum(['text', 'href', 'value', 'number', 'exists'])
      .default('text')
      .describe(
        'text: readable text; href: absolute link target; value: form field value; number: first number in the text; exists: whether anything matched',
      ),
    attribute: z.string().min(1).max(100).optional().describe('Read this attribute instead of the text'),
    all: z.boolean().default(false).describe('Every match as a list, instead of the first'),
  })
  .strict();
export type FieldPick = z.input<typeof FieldPick>;

/** A field is a selector whose text is wanted, or a full pick. */
export const FieldSpec = z.union([Selector, FieldPick]);
export type FieldSpec = z.input<typeof FieldSpec>;

export const FieldMap = z
  .record(z.string().regex(/^[A-Za-z_][\w]{0,63}$/, 'field names are identifiers'), FieldSpec)
  .refine((map) => Object.keys(map).length > 0 && Object.keys(map).length <= 64, 'between 1 and 64 fields');
export type FieldMap = Record<string, FieldSpec>;

/** What a field reads as. */
export type FieldValue = string | number | boolean | null | Array<string | number | null>;
export type ExtractedRecord = Record<string, FieldValue>;

/** The request sent into the page: plain JSON, normalised. */
export interface ExtractRequest {
  /** Rows to read; omitted reads the fields once from the whole page. */
  rows?: string;
  /** Only rows inside this element. */
  within?: string;
  fields: Record<string, Required<Pick<z.output<typeof FieldPick>, 'pick' | 'all'>> & z.output<typeof FieldPick>>;
  limit?: number;
  /** How the page tells a secret field, and what it reads as instead of its value (src/page/secret-field.ts). */
  secret: { autocomplete: readonly string[]; hidden: string };
}

/** What extraction needs to know about secret fields, from the one module that decides it. */
export const SECRET_FIELDS: ExtractRequest['secret'] = {
  autocomplete: SECRET_AUTOCOMPLETE_TOKENS,
  hidden: HIDDEN_VALUE,
};

export function normaliseFieldMap(map: FieldMap): ExtractRequest['fields'] {
  const fields: ExtractRequest['fields'] = {};
  for (const [name, spec] of Object.entries(map)) {
    fields[name] = FieldPick.parse(typeof spec === 'string' ? { selector: spec } : spec);
  }
  return fields;
}
