/** Writes schemas/recipe.schema.json from the recipe's zod schema (`npx tsx scripts/recipe-schema.ts`). */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { recipeJsonSchema } from '../src/connectors/recipe/json-schema';

const target = join(import.meta.dirname, '..', 'schemas', 'recipe.schema.json');
writeFileSync(target, JSON.stringify(recipeJsonSchema(), null, 2));
execFileSync('npx', ['prettier', '--write', target], { stdio: 'ignore' });
console.log(`wrote ${target}`);
