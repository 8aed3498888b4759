/**
 * Declarative extraction: what to read from a page, as data. Code connectors and recipes share
 * these shapes; the page agent reads them with its `extract` command, so no connector code enters
 * the page.
 */
import { z } from 'zod';
import { ExtractPick, type ExtractField } from '../page/protocol';

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
    pick: ExtractPick.default('text').describe(
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

/** The fields as the page's `extract` command takes them: every default filled in. */
export function normaliseFieldMap(map: FieldMap): Record<string, ExtractField> {
  const fields: Record<string, ExtractField> = {};
  for (const [name, spec] of Object.entries(map)) {
    fields[name] = FieldPick.parse(typeof spec === 'string' ? { selector: spec } : spec);
  }
  return fields;
}
