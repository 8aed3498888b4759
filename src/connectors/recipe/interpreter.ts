/**
 * The fixed interpreter that turns a recipe into a connector: each tool's input is built from its
 * declared parameters, and its steps run one after another through the same `ctx` code
 * connectors use. Nothing a recipe says is evaluated as code.
 */
import { z } from 'zod';
import {
  AuthExpiredError,
  ConnectorError,
  defineConnector,
  type Connector,
  type ConnectorContext,
  type ConnectorResult,
  type ConnectorTool,
  type SignedOutSigns,
} from '../sdk';
import { signInUrl, signedOutMessage } from '../context';
import { resolveOnSite } from '../sites';
import {
  checkInPage,
  clickInPage,
  expectInPage,
  fillInPage,
  loadedAfterInPage,
  selectInPage,
  submitInPage,
  textShownInPage,
  type FormStepResult,
} from './form-in-page';
import { PATTERN_MAX_INPUT, patternProblem } from './safe-pattern';
import type { Recipe, RecipeParam, RecipeStep, RecipeTool } from './schema';

/** A string parameter's own checks; a pattern outside the safe subset is never compiled. */
function stringSchema(param: Extract<RecipeParam, { type: 'string' }>): z.ZodType {
  if (param.enum) return z.enum(param.enum as [string, ...string[]]);
  if (param.pattern === undefined) return z.string().max(param.maxLength ?? 2000);
  const problem = patternProblem(param.pattern);
  if (problem) {
    const refusal = `The recipe's pattern ${JSON.stringify(param.pattern)} is refused (${problem}); ask the user to fix the recipe.`;
    return z.string().refine(() => false, refusal);
  }
  // `abort`: a value that is too long never reaches the regular expression.
  return z
    .string()
    .max(Math.min(param.maxLength ?? PATTERN_MAX_INPUT, PATTERN_MAX_INPUT), { abort: true })
    .regex(new RegExp(param.pattern));
}

function paramSchema(param: RecipeParam): z.ZodType {
  let schema: z.ZodType;
  if (param.type === 'string') {
    schema = stringSchema(param);
  } else if (param.type === 'integer') {
    let number = z.number().int();
    if (param.minimum !== undefined) number = number.min(param.minimum);
    if (param.maximum !== undefined) number = number.max(param.maximum);
    schema = number;
  } else {
    schema = z.boolean();
  }
  if (param.default !== undefined) schema = (schema as z.ZodString).default(param.default as never);
  else if (param.optional) schema = schema.optional();
  return schema.describe(param.description);
}

export function recipeInput(tool: RecipeTool): z.ZodObject {
  return z.object(Object.fromEntries(Object.entries(tool.input).map(([name, param]) => [name, paramSchema(param)])));
}

/** The value as a server might read it: percent-escapes undone, however often they were applied. */
function decodedFully(text: string): string {
  let current = text;
  for (let round = 0; round < 5; round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      return current;
    }
    if (next === current) return current;
    current = next;
  }
  return current;
}

/**
 * An argument placed in the path part names one segment: a dot segment or a separator would walk
 * out of the path the recipe declares (`issues/{id}` with `..` reaching the site's root).
 */
function refuseSegmentEscape(name: string, value: string): void {
  const decoded = decodedFully(value);
  if (decoded === '.' || decoded === '..' || /[/\\]/.test(decoded)) {
    throw new ConnectorError(
      `The argument ${name} may not be "." or ".." or contain "/" or "\\" (also percent-encoded): it is one part of a path.`,
    );
  }
}

/**
 * `{name}` → the argument, URL-encoded; a missing optional argument is empty. Arguments before the
 * query (`?`) are path segments and may not step out of the declared path.
 */
export function fillPath(path: string, args: Record<string, unknown>): string {
  const queryAt = path.search(/[?#]/);
  return path.replace(/\{(\w+)\}/g, (_, name: string, offset: number) => {
    const value = args[name];
    if (value === undefined || value === null) return '';
    const text = String(value);
    if (queryAt < 0 || offset < queryAt) refuseSegmentEscape(name, text);
    return encodeURIComponent(text);
  });
}

/** `{name}` → the argument as it is, for values typed into a form or looked for on the page. */
export function fillValue(template: string, args: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = args[name];
    return value === undefined || value === null ? '' : String(value);
  });
}

/** What the tool is running for: the recipe's name and sign-in signs, for the messages it gives. */
export interface RecipeSite {
  name: string;
  auth: SignedOutSigns | undefined;
}

const SUBMIT_WAIT_MS = 15_000;
const DEFAULT_TEXT_WAIT_MS = 10_000;

function formStep(result: FormStepResult): void {
  if (!result.ok) throw new ConnectorError(result.error);
}

/**
 * Submits a form in the tab and waits for the page that follows: the old document is marked, and
 * the tab is asked (until it answers) whether a new, loaded document is there. A site that never
 * answers may still have saved the form, and the agent is told so.
 */
async function submitForm(
  step: Extract<RecipeStep, { step: 'submit' }>,
  ctx: ConnectorContext,
  site: RecipeSite,
): Promise<void> {
  const mark = `${Date.now()}-${Math.random().toString(36).slice(2)}`;
  formStep(await ctx.evaluate(submitInPage, step.form, mark));
  const timeoutMs = step.timeoutMs ?? SUBMIT_WAIT_MS;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    try {
      if (await ctx.evaluate(loadedAfterInPage, mark)) break;
    } catch (error) {
      // Between two documents the tab cannot run anything; a page the gates refuse still fails.
      if (error instanceof ConnectorError && /may not read/.test(error.message)) throw error;
    }
    if (Date.now() > deadline) {
      throw new ConnectorError(
        `${site.name} did not show a page within ${Math.round(timeoutMs / 1000)} s after the form was sent; it may have been saved — check before trying again.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const { signedOut } = site.auth?.loginSelector
    ? await ctx.extractFields({ signedOut: { selector: site.auth.loginSelector, pick: 'exists' } })
    : { signedOut: false };
  const landed = new URL(await ctx.url());
  const loginPath = site.auth?.loginPath ? resolveOnSite(ctx.site, site.auth.loginPath).pathname : undefined;
  if (signedOut || (loginPath && landed.pathname.startsWith(loginPath))) {
    throw new AuthExpiredError(signedOutMessage(site.name, signInUrl(ctx.site, site.auth)));
  }
  if (step.waitFor) await ctx.waitFor(step.waitFor, { timeoutMs });
}

async function runStep(
  step: RecipeStep,
  args: Record<string, unknown>,
  ctx: ConnectorContext,
  out: Record<string, unknown>,
  site: RecipeSite,
) {
  switch (step.step) {
    case 'navigate':
      return ctx.navigate(fillPath(step.path, args), {
        ...(step.waitFor ? { waitFor: step.waitFor } : {}),
        ...(step.timeoutMs ? { timeoutMs: step.timeoutMs } : {}),
      });
    case 'wait':
      return ctx.waitFor(step.selector, {
        ...(step.gone ? { gone: true } : {}),
        ...(step.timeoutMs ? { timeoutMs: step.timeoutMs } : {}),
      });
    case 'extract-rows': {
      const limit = typeof step.limit === 'string' ? Number(args[step.limit.slice(1, -1)]) : step.limit;
      out[step.into] = await ctx.extractRows(step.rows, step.fields, {
        ...(limit && Number.isFinite(limit) ? { limit } : {}),
        ...(step.within ? { within: step.within } : {}),
      });
      return;
    }
    case 'extract-fields':
      out[step.into] = await ctx.extractFields(step.fields);
      return;
    case 'wait-text': {
      const timeoutMs = step.timeoutMs ?? DEFAULT_TEXT_WAIT_MS;
      formStep(await ctx.evaluate(textShownInPage, fillValue(step.text, args), step.within ?? null, timeoutMs));
      return;
    }
    case 'expect': {
      const text = step.text === undefined ? null : fillValue(step.text, args);
      const seen = await ctx.evaluate(expectInPage, step.selector, text, step.error ?? null);
      if (seen.error) throw new ConnectorError(`${step.message}: ${site.name} says "${seen.error}"`);
      if (!seen.found) throw new ConnectorError(`${step.message} (${site.name} does not show it).`);
      return;
    }
    case 'fill':
      return formStep(await ctx.evaluate(fillInPage, step.selector, fillValue(step.value, args)));
    case 'select':
      return formStep(await ctx.evaluate(selectInPage, step.selector, fillValue(step.label, args)));
    case 'check': {
      const checked = typeof step.checked === 'string' ? args[step.checked.slice(1, -1)] === true : step.checked;
      return formStep(await ctx.evaluate(checkInPage, step.selector, checked));
    }
    case 'click':
      return formStep(await ctx.evaluate(clickInPage, step.selector));
    case 'submit':
      return submitForm(step, ctx, site);
  }
}

export async function runRecipeTool(
  tool: RecipeTool,
  args: Record<string, unknown>,
  ctx: ConnectorContext,
  site: RecipeSite = { name: 'The site', auth: undefined },
): Promise<ConnectorResult> {
  const data: Record<string, unknown> = {};
  for (const step of tool.steps) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    await runStep(step, args, ctx, data, site);
  }
  return { data };
}

export function recipeToConnector(recipe: Recipe): Connector {
  const tools: Record<string, ConnectorTool> = {};
  for (const [name, tool] of Object.entries(recipe.tools)) {
    tools[name] = {
      description: recipe.tested ? tool.description : `${tool.description} (recipe not tested against a live site)`,
      input: recipeInput(tool),
      destructive: tool.destructive,
      run: (args, ctx) => runRecipeTool(tool, args, ctx, { name: recipe.name, auth: recipe.auth }),
    };
  }
  return defineConnector({
    id: recipe.id,
    name: recipe.name,
    version: recipe.version,
    ...(recipe.summary ? { summary: recipe.summary } : {}),
    matches: recipe.matches,
    ...(recipe.auth ? { auth: recipe.auth } : {}),
    tools,
    tested: recipe.tested,
    kind: 'recipe',
    async healthCheck(ctx) {
      if (!recipe.health) {
        await ctx.navigate('');
        return true;
      }
      await ctx.navigate(recipe.health.path);
      const { signedIn } = await ctx.extractFields({
        signedIn: { selector: recipe.health.signedInSelector, pick: 'exists' },
      });
      return signedIn === true;
    },
  });
}
