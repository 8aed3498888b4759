/**
 * The recipe format as a JSON Schema document, derived from the zod schema. Published as
 * `schemas/recipe.schema.json` (written by `scripts/recipe-schema.ts`); a test keeps the file equal
 * to what this returns, so the two never drift.
 */
import { z } from 'zod';
import { Recipe } from './schema';

export function recipeJsonSchema(): Record<string, unknown> {
  const schema = z.toJSONSchema(Recipe, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return {
    ...schema,
    title: 'Tabwright recipe connector',
    description:
      'A connector written as data: tools made of navigate, wait, extract-rows and extract-fields steps, run by a fixed interpreter. See docs/connectors.md.',
  };
}
