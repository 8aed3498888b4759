/**
 * The connector SDK: a connector is one declarative object — its id, the sites it works on, its
 * tools (description, zod input, `destructive`, `run`) and a cheap health check. Tools act through
 * `ctx`, which works in the connector's own background tab and reads pages declaratively.
 */
import { ToolFailure } from '../mcp-server/tool-failure';
import type { z } from 'zod';
import type { ExtractedRecord, FieldMap } from './fields';
import type { FetchReply } from '../page/protocol';

/** How to tell that the site has signed the user out. */
export interface SignedOutSigns {
  /** A path (prefix of the URL's pathname) that is the sign-in page, e.g. `/login`. */
  loginPath?: string;
  /** A selector present only on the sign-in page or form, e.g. `form#login-form`. */
  loginSelector?: string;
  /** Where the user signs in, relative to the site; the sign-in prompt links there. */
  signInPath?: string;
}

export interface NavigateOptions {
  /** Wait for this selector after the page loads. */
  waitFor?: string;
  timeoutMs?: number;
}

export interface FetchOptions {
  method?: 'GET' | 'POST';
  form?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  /** Characters of the response body kept (default 1,000,000). */
  maxChars?: number;
}

/** What a connector tool can do: only on its own site, only in its own tab. */
export interface ConnectorContext {
  readonly signal: AbortSignal;
  /** The site the connector works on (origin plus any base path), ending in `/`. */
  readonly site: string;
  /** Resolves `path` against the site and loads it in the connector's tab. */
  navigate(path: string, options?: NavigateOptions): Promise<void>;
  waitFor(selector: string, options?: { timeoutMs?: number; gone?: boolean }): Promise<void>;
  extractRows(
    rowSelector: string,
    fields: FieldMap,
    options?: { limit?: number; within?: string },
  ): Promise<ExtractedRecord[]>;
  extractFields(fields: FieldMap): Promise<ExtractedRecord>;
  /**
   * Runs a self-contained function in the page (no closures: only its arguments reach it, as
   * JSON). For the rare step that declarative extraction cannot express.
   */
  evaluate<Args extends unknown[], R>(fn: (...args: Args) => R, ...args: Args): Promise<Awaited<R>>;
  /** A same-origin request with the page's own cookies, the way the page itself would make it. */
  fetch(path: string, options?: FetchOptions): Promise<PageFetchResponse>;
  /** The URL the connector's tab shows now. */
  url(): Promise<string>;
  log(message: string): void;
}

/** What `ctx.fetch` answers: the response's status, final URL, type and (capped) text. */
export type PageFetchResponse = FetchReply;

/** What a tool answers: structured data for the agent plus a short text rendering. */
export interface ConnectorResult {
  data: Record<string, unknown>;
  /** A short rendering of `data`; derived from it when omitted. */
  text?: string;
}

export interface ConnectorTool<Input extends z.ZodObject = z.ZodObject> {
  /** A short human title; derived from the tool's name when omitted. */
  title?: string;
  description: string;
  /** `.describe()` on every field: the agent reads these. */
  input: Input;
  /**
   * The shape of `data` in the result, listed as the tool's MCP `outputSchema`; a result that does
   * not match is refused rather than sent.
   */
  output?: z.ZodObject;
  /** Writes to the site: needs act mode and the user's confirmation. */
  destructive: boolean;
  run(args: z.output<Input>, ctx: ConnectorContext): Promise<ConnectorResult>;
}

export interface ConnectorDefinition<Inputs extends Record<string, z.ZodObject> = Record<string, z.ZodObject>> {
  id: string;
  name: string;
  version: string;
  /** URL match patterns (`https://*.example.com/*`); the user can add their own sites. */
  matches: readonly string[];
  /** One line for Settings: what the connector is for. */
  summary?: string;
  /** The kind of address the person gives it, shown as the site field's example (`https://wiki.example.com/`). */
  siteExample?: string;
  auth?: SignedOutSigns;
  /** Each tool keeps its own input type, so `run` sees typed arguments. */
  tools: { [Name in keyof Inputs]: ConnectorTool<Inputs[Name]> };
  /** Cheap; resolves true when signed in. Throw AuthExpiredError (or return false) when signed out. */
  healthCheck(ctx: ConnectorContext): Promise<boolean>;
  /** Set for recipes: whether it was ever run against the real site. */
  tested?: boolean;
  /** `code` for bundled modules, `recipe` for imported JSON. */
  kind?: 'code' | 'recipe';
}

export type Connector = Readonly<ConnectorDefinition> & { readonly kind: 'code' | 'recipe' };

export const CONNECTOR_ID = /^[a-z][a-z0-9_-]{1,31}$/;
export const TOOL_NAME = /^[a-z][a-z0-9_]{0,47}$/;

/** Validates the shape once, at definition time: a bad connector fails the build's tests, not a call. */
export function defineConnector<Inputs extends Record<string, z.ZodObject>>(
  definition: ConnectorDefinition<Inputs>,
): Connector {
  if (!CONNECTOR_ID.test(definition.id)) {
    throw new Error(`Connector id "${definition.id}" must be 2–32 lowercase letters, digits, _ or -`);
  }
  if (!definition.name.trim()) throw new Error(`Connector ${definition.id} has no name`);
  const tools = Object.entries(definition.tools) as Array<[string, ConnectorTool]>;
  if (tools.length === 0) throw new Error(`Connector ${definition.id} has no tools`);
  for (const [name, tool] of tools) {
    if (!TOOL_NAME.test(name)) throw new Error(`Tool name ${definition.id}.${name} must be snake_case`);
    if (!tool.description.trim()) throw new Error(`Tool ${definition.id}.${name} has no description`);
    for (const [field, schema] of Object.entries(tool.input.shape)) {
      if (!(schema as z.ZodType).description) {
        throw new Error(`Tool ${definition.id}.${name}: input field "${field}" needs .describe()`);
      }
    }
  }
  return Object.freeze({ ...definition, kind: definition.kind ?? 'code' }) as Connector;
}

/** The site signed the user out: the agent is told to ask the user to sign in. */
export class AuthExpiredError extends ToolFailure {
  constructor(message = 'The site asked for a sign-in.') {
    super(message);
    this.name = 'AuthExpiredError';
  }
}

/** An expected failure the agent can act on ("no ticket with that id"): shown as the tool's error. */
export class ConnectorError extends ToolFailure {
  constructor(message: string) {
    super(message);
    this.name = 'ConnectorError';
  }
}

/** A plain-text rendering of structured data, for tools that give no text of their own. */
export function renderData(data: Record<string, unknown>): string {
  const line = (value: unknown): string => {
    if (value === null || value === undefined) return '';
    if (Array.isArray(value)) return value.map(line).join(', ');
    if (typeof value === 'object') {
      return Object.entries(value as Record<string, unknown>)
        .filter(([, v]) => v !== null && v !== '' && v !== undefined)
        .map(([k, v]) => `${k}: ${line(v).replaceAll('\n', ' ')}`)
        .join(' · ');
    }
    return String(value);
  };
  const parts: string[] = [];
  for (const [key, value] of Object.entries(data)) {
    if (Array.isArray(value) && value.some((item) => item && typeof item === 'object')) {
      parts.push(`${key} (${value.length}):`, ...value.map((item) => `- ${line(item)}`));
    } else if (value && typeof value === 'object') {
      parts.push(`${key}:`, ...Object.entries(value).map(([k, v]) => `  ${k}: ${line(v)}`));
    } else {
      parts.push(`${key}: ${line(value)}`);
    }
  }
  return parts.join('\n');
}
