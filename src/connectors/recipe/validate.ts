/**
 * Reading a recipe the user pasted or picked: JSON first, then the schema, then what the schema
 * cannot say (every `{param}` is declared, result keys are unique). Every problem is reported
 * with where it is, so the user can fix the document.
 */
import type { z } from 'zod';
import { INVALID_PATTERN, PATTERN_MAX_INPUT, patternProblem } from './safe-pattern';
import { Recipe, type RecipeTool } from './schema';

export type RecipeCheck = { ok: true; recipe: Recipe } | { ok: false; errors: string[] };

export const MAX_RECIPE_BYTES = 256 * 1024;

function where(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : text ? `${text}.${String(key)}` : String(key)),
    '',
  );
}

const KINDS: Record<string, string> = {
  step: 'use navigate, wait, wait-text, extract-rows, extract-fields, expect, fill, select, check, click or submit',
  type: 'use string, integer or boolean',
};

function describeIssue(issue: z.core.$ZodIssue): string {
  const at = where(issue.path) || '(top level)';
  if (issue.code === 'unrecognized_keys') return `${at}: unknown key(s) ${issue.keys.join(', ')}`;
  if (issue.code === 'invalid_key') return `${at}: not a valid name (${issue.issues[0]?.message ?? 'invalid'})`;
  const union = issue as { note?: string; discriminator?: string };
  if (issue.code === 'invalid_union' && union.note === 'No matching discriminator') {
    const key = union.discriminator ?? String(issue.path.at(-1) ?? '');
    return `${at}: unknown kind; ${KINDS[key] ?? 'see docs/connectors.md'}`;
  }
  if (issue.code === 'invalid_type' && issue.message.endsWith('received undefined')) return `${at}: required`;
  return `${at}: ${issue.message}`;
}

const PLACEHOLDER = /\{(\w+)\}/g;
/** Steps that change what the site holds: only a destructive tool (confirmed by the user) may have them. */
const WRITE_STEPS = new Set(['fill', 'select', 'check', 'click', 'submit']);

function crossChecks(recipe: Recipe): string[] {
  const errors: string[] = [];
  for (const [name, tool] of Object.entries(recipe.tools) as Array<[string, RecipeTool]>) {
    const seen = new Set<string>();
    tool.steps.forEach((step, index) => {
      const at = `tools.${name}.steps[${index}]`;
      if (step.step === 'navigate') {
        for (const [, param] of step.path.matchAll(PLACEHOLDER)) {
          if (!(param! in tool.input)) errors.push(`${at}.path: {${param}} is not an input of ${name}`);
        }
      }
      const template =
        step.step === 'fill'
          ? (['value', step.value] as const)
          : step.step === 'select'
            ? (['label', step.label] as const)
            : step.step === 'wait-text' || (step.step === 'expect' && step.text !== undefined)
              ? (['text', step.text!] as const)
              : undefined;
      if (template) {
        for (const [, param] of template[1].matchAll(PLACEHOLDER)) {
          if (!(param! in tool.input)) errors.push(`${at}.${template[0]}: {${param}} is not an input of ${name}`);
        }
      }
      if (step.step === 'check' && typeof step.checked === 'string') {
        const param = step.checked.slice(1, -1);
        if (tool.input[param]?.type !== 'boolean') {
          errors.push(`${at}.checked: {${param}} must name a boolean input of ${name}`);
        }
      }
      if (WRITE_STEPS.has(step.step) && !tool.destructive) {
        errors.push(`${at}: a ${step.step} step changes the site, so the tool must be "destructive": true`);
      }
      if (step.step === 'extract-rows' && typeof step.limit === 'string') {
        const param = step.limit.slice(1, -1);
        if (tool.input[param]?.type !== 'integer') {
          errors.push(`${at}.limit: {${param}} must name an integer input of ${name}`);
        }
      }
      if (step.step === 'extract-rows' || step.step === 'extract-fields') {
        if (seen.has(step.into)) errors.push(`${at}.into: "${step.into}" is used by an earlier step`);
        seen.add(step.into);
      }
    });
    if (seen.size === 0) errors.push(`tools.${name}.steps: no extract step, so the tool would return nothing`);
    for (const [param, spec] of Object.entries(tool.input)) {
      if (spec.type === 'string' && spec.pattern !== undefined) {
        const at = `tools.${name}.input.${param}`;
        const problem = patternProblem(spec.pattern);
        if (problem === INVALID_PATTERN) errors.push(`${at}.pattern: ${problem}`);
        else if (problem) errors.push(`${at}.pattern: ${JSON.stringify(spec.pattern)}: ${problem}`);
        if ((spec.maxLength ?? 0) > PATTERN_MAX_INPUT) {
          errors.push(`${at}.maxLength: at most ${PATTERN_MAX_INPUT} for a parameter with a pattern`);
        }
      }
    }
  }
  return errors;
}

export function checkRecipe(value: unknown): RecipeCheck {
  const parsed = Recipe.safeParse(value);
  if (!parsed.success) return { ok: false, errors: parsed.error.issues.map(describeIssue) };
  const errors = crossChecks(parsed.data);
  return errors.length ? { ok: false, errors } : { ok: true, recipe: parsed.data };
}

export function parseRecipeText(text: string): RecipeCheck {
  if (new TextEncoder().encode(text).length > MAX_RECIPE_BYTES) {
    return { ok: false, errors: [`The recipe is larger than ${MAX_RECIPE_BYTES / 1024} KiB.`] };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, errors: [`Not valid JSON: ${(error as Error).message}`] };
  }
  return checkRecipe(value);
}
