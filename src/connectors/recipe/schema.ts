/**
 * The recipe format: a connector written as data. Tools are lists of navigate / wait / extract
 * steps and, for tools that write, form steps (fill, select, check, click, submit, expect), run by
 * a fixed interpreter — nothing in a recipe is code.
 * `schemas/recipe.schema.json` is generated from this file (`npx tsx scripts/recipe-schema.ts`) and a test
 * keeps the two equal.
 */
import { z } from 'zod';
import { FieldMap } from '../fields';
import { CONNECTOR_ID, TOOL_NAME } from '../sdk';
import { parsePattern } from '../sites';

export const RECIPE_FORMAT = 'tabwright-recipe/1';

const Identifier = z.string().regex(/^[A-Za-z_]\w{0,63}$/, 'an identifier (letters, digits, _)');
const Selector = z.string().min(1).max(500);
const Description = z.string().trim().min(1).max(1000);
const Timeout = z.number().int().min(100).max(60_000);

const StringParam = z
  .object({
    type: z.literal('string'),
    description: Description.describe('What the value means; the agent reads this'),
    enum: z.array(z.string().min(1)).min(1).optional().describe('The only values allowed'),
    pattern: z
      .string()
      .max(200)
      .optional()
      .describe(
        'A regular expression the value must match: no backreferences, no lookaround, no quantified group that holds a quantifier or |, at most one variable quantifier (two after a leading ^)',
      ),
    maxLength: z.number().int().min(1).max(10_000).optional().describe('At most 1000 when there is a pattern'),
    default: z.string().optional(),
    optional: z.boolean().optional().describe('May be left out (it then reads as an empty string)'),
  })
  .strict();
const IntegerParam = z
  .object({
    type: z.literal('integer'),
    description: Description,
    minimum: z.number().int().optional(),
    maximum: z.number().int().optional(),
    default: z.number().int().optional(),
    optional: z.boolean().optional(),
  })
  .strict();
const BooleanParam = z
  .object({
    type: z.literal('boolean'),
    description: Description,
    default: z.boolean().optional(),
    optional: z.boolean().optional(),
  })
  .strict();
export const RecipeParam = z.discriminatedUnion('type', [StringParam, IntegerParam, BooleanParam]);
export type RecipeParam = z.infer<typeof RecipeParam>;

/** `{name}` in a path is replaced by the argument `name`, URL-encoded. */
const Path = z
  .string()
  .max(2000)
  .describe(
    'A path on the site; `{param}` inserts an argument, URL-encoded (before any `?` it may not be `.`, `..` or contain `/` or `\\`)',
  );

/** `{name}` in a value is replaced by the argument `name` as it is (not URL-encoded). */
const Template = z.string().min(1).max(10_000).describe('A value; `{param}` inserts an argument as it is');

export const RecipeStep = z.discriminatedUnion('step', [
  z
    .object({
      step: z.literal('navigate'),
      path: Path,
      waitFor: Selector.optional().describe('Wait for this selector after the page loads'),
      timeoutMs: Timeout.optional(),
    })
    .strict(),
  z
    .object({
      step: z.literal('wait'),
      selector: Selector,
      gone: z.boolean().optional().describe('Wait until nothing matches instead'),
      timeoutMs: Timeout.optional(),
    })
    .strict(),
  z
    .object({
      step: z.literal('extract-rows'),
      rows: Selector.describe('One element per row'),
      within: Selector.optional().describe('Only rows inside the first element matching this'),
      fields: FieldMap,
      into: Identifier.describe('The key of the result that holds the rows'),
      limit: z
        .union([z.number().int().min(1).max(1000), z.string().regex(/^\{\w+\}$/)])
        .optional()
        .describe('At most this many rows: a number, or `{param}` naming an integer argument'),
    })
    .strict(),
  z
    .object({
      step: z.literal('extract-fields'),
      fields: FieldMap,
      into: Identifier.describe('The key of the result that holds the fields'),
    })
    .strict(),
  z
    .object({
      step: z.literal('wait-text'),
      text: Template.describe('Text to wait for; `{param}` inserts an argument'),
      within: Selector.optional().describe('Only inside the first element matching this'),
      timeoutMs: Timeout.optional(),
    })
    .strict(),
  z
    .object({
      step: z.literal('expect'),
      selector: Selector.describe('What the page must show now'),
      text: Template.optional().describe('…containing this text'),
      error: Selector.optional().describe("The site's error message: when it matches, the tool fails with its text"),
      message: Description.describe('What failed, in words, when the page does not show it'),
    })
    .strict(),
  z
    .object({
      step: z.literal('fill'),
      selector: Selector.describe('A text field or text area'),
      value: Template,
    })
    .strict(),
  z
    .object({
      step: z.literal('select'),
      selector: Selector.describe('A drop-down list'),
      label: Template.describe('The visible label of the option to choose'),
    })
    .strict(),
  z
    .object({
      step: z.literal('check'),
      selector: Selector.describe('A checkbox'),
      checked: z
        .union([z.boolean(), z.string().regex(/^\{\w+\}$/)])
        .describe('true, false, or `{param}` naming a boolean argument'),
    })
    .strict(),
  z
    .object({
      step: z.literal('click'),
      selector: Selector.describe('A button or link'),
    })
    .strict(),
  z
    .object({
      step: z.literal('submit'),
      form: Selector.describe('The form to submit, as its submit button would'),
      waitFor: Selector.optional().describe('Wait for this selector on the page that follows'),
      timeoutMs: Timeout.optional().describe('How long the site may take to answer (default 15 s)'),
    })
    .strict(),
]);
export type RecipeStep = z.infer<typeof RecipeStep>;

export const RecipeTool = z
  .object({
    description: Description.describe('What the tool does; the agent reads this'),
    destructive: z
      .boolean()
      .default(false)
      .describe(
        'Changes the site: needs act mode and confirmation; required for fill, select, check, click and submit',
      ),
    input: z.record(Identifier, RecipeParam).default({}),
    steps: z.array(RecipeStep).min(1).max(50),
  })
  .strict();
export type RecipeTool = z.infer<typeof RecipeTool>;

export const Recipe = z
  .object({
    $schema: z.string().optional(),
    format: z.literal(RECIPE_FORMAT),
    id: z.string().regex(CONNECTOR_ID, 'an id of 2–32 lowercase letters, digits, _ or -'),
    name: z.string().trim().min(1).max(64),
    version: z.string().regex(/^\d+\.\d+\.\d+$/, 'a version like 1.0.0'),
    summary: z.string().max(300).optional(),
    tested: z.boolean().default(false).describe('Whether the recipe was run against a live site'),
    matches: z
      .array(
        z.string().refine((p) => parsePattern(p) !== undefined, 'a URL match pattern like https://*.example.com/*'),
      )
      .min(1)
      .max(20),
    auth: z
      .object({
        loginPath: z.string().max(500).optional().describe('Path of the sign-in page'),
        loginSelector: Selector.optional().describe('Present only when the user is signed out'),
        signInPath: z.string().max(500).optional().describe('Where the sign-in prompt links'),
      })
      .strict()
      .optional(),
    health: z
      .object({
        path: Path,
        signedInSelector: Selector.describe('Present only when the user is signed in'),
      })
      .strict()
      .optional(),
    tools: z
      .record(z.string().regex(TOOL_NAME, 'a snake_case tool name'), RecipeTool)
      .refine((tools) => Object.keys(tools).length > 0, 'at least one tool'),
  })
  .strict();
export type Recipe = z.infer<typeof Recipe>;
