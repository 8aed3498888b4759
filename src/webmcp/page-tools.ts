/**
 * Tools a page declares through WebMCP (`document.modelContext.registerTool`), turned into tool
 * specs the gates can judge. Everything here comes from the page: names, titles, descriptions and
 * schemas are untrusted, so they are cleaned, capped and labelled as the page's before any of it
 * reaches the agent (the schema in page-schema.ts). The page's hints decide the gates: no
 * `readOnlyHint` means a write, and a consequential hint (or MCP's `destructiveHint`), or hints
 * Tabwright could not see the tool registered with (registered-hints.ts), ask the user every time.
 */
import { z } from 'zod';
import { listingOf, type ToolListing } from '../mcp-server/registry';
import { ResponseBuilder } from '../mcp-server/response';
import type { ToolSpec } from '../mcp-server/tool-spec';
import { MAX_SCHEMA_CHARS, readPageSchema, type PageSchema } from './page-schema';
import { cleanPageText } from './page-text';
import type { DeclaredPageTool, Strictness } from './declared';

export type { DeclaredPageTool };

export { cleanPageText } from './page-text';

/**
 * A page's tool as a spec: `alwaysConfirm` when the page marked it consequential (or its hints
 * could not be seen), `inputSchema` the page's schema as cleaned for listing.
 */
export interface PageTool extends ToolSpec {
  /** How it is listed, kept to notice when the page changes what it declares. */
  readonly listing: ToolListing;
}

/** How the gates take the tool, which the page is held to when it runs. */
export const strictnessOf = (tool: Pick<PageTool, 'alwaysConfirm' | 'effect'>): Strictness =>
  tool.alwaysConfirm ? 'every-call' : tool.effect === 'read' ? 'read' : 'write';

export const MAX_PAGE_TOOLS = 32;
const MAX_NAME = 64;
const MAX_TITLE = 80;
const MAX_DESCRIPTION = 1000;
/** Text a page tool may return to the agent; the rest is cut with a note. */
export const MAX_RESULT_CHARS = 100_000;

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** `http://127.0.0.1:8080` → `page.127-0-0-1-8080`; `https://app.example.com` → `page.app-example-com`. */
export function pageServerName(origin: string): string {
  const url = new URL(origin);
  const host = url.hostname
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `page.${host}${url.port ? `-${url.port}` : ''}`;
}

const flag = (annotations: Record<string, unknown>, ...names: string[]) =>
  names.some((name) => annotations[name] === true);

function readSchema(raw: unknown): PageSchema | { problem: string } {
  let schema: unknown = raw;
  if (raw === undefined || raw === null || raw === '') schema = { type: 'object', properties: {} };
  if (typeof raw === 'string' && raw !== '') {
    if (raw.length > MAX_SCHEMA_CHARS) return { problem: 'its input schema is too large' };
    try {
      schema = JSON.parse(raw);
    } catch {
      return { problem: 'its input schema is not JSON' };
    }
  }
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    return { problem: 'its input schema is not an object schema' };
  }
  const object = schema as Record<string, unknown>;
  if (object.type !== undefined && object.type !== 'object')
    return { problem: 'its input schema is not of type object' };
  if (JSON.stringify(object).length > MAX_SCHEMA_CHARS) return { problem: 'its input schema is too large' };
  return readPageSchema(object);
}

/**
 * Arguments are checked against the schema the page declared (zod reads the JSON Schema), so a
 * call that does not fit is refused at the gates' first step and never reaches the page. The
 * schema zod reads is the checked copy: no references, and no page pattern it could not run safely.
 */
function inputFor(schema: PageSchema): z.ZodObject | undefined {
  let declared: z.ZodType;
  try {
    declared = z.fromJSONSchema(schema.checked as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return undefined;
  }
  return z.looseObject({}).superRefine((value, ctx) => {
    let checked: ReturnType<typeof declared.safeParse>;
    try {
      checked = declared.safeParse(value);
    } catch (error) {
      // Refused like any other misfit, so the call is still audited.
      ctx.addIssue({ code: 'custom', message: `the page's schema could not check them (${String(error)})` });
      return;
    }
    if (checked.success) return;
    for (const issue of checked.error.issues) {
      const pattern =
        issue.code === 'invalid_format' && 'pattern' in issue ? schema.patterns.get(String(issue.pattern)) : undefined;
      const message =
        pattern === undefined ? issue.message : `Invalid string: must match the page's pattern ${pattern}`;
      ctx.addIssue({ code: 'custom', message, path: issue.path });
    }
  });
}

export interface ReadPageTools {
  tools: PageTool[];
  /** Tools left out, and why, for the log. */
  skipped: string[];
}

/** The page's declarations as tool specs of the server `serverName`; anything unusable is left out. */
export function readPageTools(
  declared: readonly DeclaredPageTool[],
  serverName: string,
  origin: string,
): ReadPageTools {
  const tools: PageTool[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const raw of declared) {
    const name = typeof raw.name === 'string' ? raw.name : '';
    const shown = cleanPageText(name, MAX_NAME) || '(no name)';
    if (!TOOL_NAME.test(name)) {
      skipped.push(`${shown}: the name is not a plain tool name`);
      continue;
    }
    if (seen.has(name)) {
      skipped.push(`${name}: declared twice`);
      continue;
    }
    if (tools.length >= MAX_PAGE_TOOLS) {
      skipped.push(`${name}: the page declares more than ${MAX_PAGE_TOOLS} tools`);
      continue;
    }
    const read = readSchema(raw.inputSchema);
    if ('problem' in read) {
      skipped.push(`${name}: ${read.problem}`);
      continue;
    }
    const input = inputFor(read);
    if (!input) {
      skipped.push(`${name}: its input schema cannot be read`);
      continue;
    }
    seen.add(name);
    const annotations =
      typeof raw.annotations === 'object' && raw.annotations !== null
        ? (raw.annotations as Record<string, unknown>)
        : {};
    const unseen = raw.hintsUnseen === true;
    const consequential = unseen || flag(annotations, 'consequentialHint', 'destructiveHint');
    const effect = flag(annotations, 'readOnlyHint', 'readOnly') && !consequential ? 'read' : 'write';
    const title = cleanPageText(raw.title, MAX_TITLE) || name;
    const pageDescription = cleanPageText(raw.description, MAX_DESCRIPTION) || '(no description)';
    const why = unseen
      ? '; Tabwright could not see the hints it was registered with, so it is a write the user confirms every call'
      : consequential
        ? '; the page marks it consequential, so the user confirms every call'
        : '';
    const description =
      `Page-provided tool declared by ${origin} (its description, input schema and results are untrusted page content${why}): ` +
      pageDescription;
    const spec: ToolSpec = {
      name,
      title,
      description,
      input,
      inputSchema: read.listed,
      effect,
      scope: 'page',
      alwaysConfirm: consequential,
    };
    tools.push({ ...spec, listing: listingOf(serverName, spec) });
  }
  return { tools, skipped };
}

function textBlocks(value: unknown): { text: string; isError: boolean } | undefined {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { content?: unknown }).content)) {
    return undefined;
  }
  const blocks = (value as { content: unknown[] }).content;
  const parts = blocks.map((block) => {
    const b = block as { type?: unknown; text?: unknown };
    return b?.type === 'text' && typeof b.text === 'string'
      ? b.text
      : `(${String(b?.type ?? 'unknown')} content left out)`;
  });
  return { text: parts.join('\n'), isError: (value as { isError?: unknown }).isError === true };
}

/**
 * What the page's `execute` returned (Chromium serialises it to JSON text): an MCP-style result's
 * text blocks, a string as it is, anything else as JSON — always wrapped as the page's words.
 */
export function pageToolResult(
  raw: string | null | undefined,
  origin: string,
  tool: string,
  response = new ResponseBuilder(),
): ResponseBuilder {
  let text: string;
  let isError = false;
  if (raw === null || raw === undefined) text = '(the page tool returned nothing)';
  else {
    let value: unknown = raw;
    try {
      value = JSON.parse(raw);
    } catch {
      // Not JSON: the page's text as it is.
    }
    const blocks = textBlocks(value);
    if (blocks) ({ text, isError } = blocks);
    else text = typeof value === 'string' ? value : JSON.stringify(value, null, 2);
  }
  if (text.length > MAX_RESULT_CHARS) {
    text = `${text.slice(0, MAX_RESULT_CHARS)}\n… (cut at ${MAX_RESULT_CHARS} characters)`;
  }
  if (isError) response.error(`The page's ${tool} tool reported an error:`);
  return response.pageText(origin, text);
}
