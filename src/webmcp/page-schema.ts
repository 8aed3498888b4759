/**
 * A page tool's input schema, read as the page's words. One walk gives two schemas: the one the
 * agent is shown and the one its arguments are checked against.
 *
 * - What the agent is shown keeps the keywords that say what to send. Descriptions are cleaned
 *   like the tool's own and start with "(from the page) "; titles, examples, defaults, comments
 *   and unknown keywords are left out.
 * - Property names and enum or const values go back to the page as they are, so they cannot be
 *   cleaned: a tool whose names are not plain, or whose values or patterns cleaning would change,
 *   is left out with the reason.
 * - `$ref`s are followed in place (only `#`, `#/$defs/…` and `#/definitions/…`); one that leads
 *   back to itself leaves the tool out, as do schemas too deep or too large once followed.
 * - The page's regular expressions are never run unguarded on the panel's thread (see
 *   page-patterns.ts), and `format`, an annotation in JSON Schema 2020-12, is not checked.
 */
import { checkedPattern } from './page-patterns';
import { cleanPageText } from './page-text';
import { SchemaProblem, fail, pageRegex, plainName, plainValue } from './schema-words';

export const MAX_SCHEMA_CHARS = 16_000;
const MAX_DEPTH = 10;
/** Schemas walked, references followed included: bounds both what is listed and the work of a check. */
const MAX_NODES = 1000;
const MAX_LISTED_CHARS = 24_000;
const MAX_SCHEMA_DESCRIPTION = 300;
const MAX_LIST = 256;

/** What starts every description the page wrote inside a schema. */
export const FROM_THE_PAGE = '(from the page) ';

const FORMAT_NAME = /^[A-Za-z0-9_-]{1,40}$/;
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const NUMBERS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minContains',
  'maxContains',
];
const ONE_SCHEMA = ['additionalProperties', 'items', 'additionalItems', 'contains', 'propertyNames'];
/** Keywords the check cannot follow: a tool whose schema uses one is left out rather than checked loosely. */
const UNCHECKABLE = [
  'if',
  'then',
  'else',
  'unevaluatedItems',
  'unevaluatedProperties',
  'dependentSchemas',
  'dependentRequired',
];
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Beside a `$ref`, these change nothing the reference says. */
const NOTES = new Set(['description', 'title', 'examples', 'default', '$comment', 'deprecated']);

export interface PageSchema {
  listed: Record<string, unknown>;
  checked: Record<string, unknown>;
  /** The page's pattern for each guarded one in `checked`, to name it in refusals. */
  patterns: ReadonlyMap<string, string>;
}

interface Walk {
  root: Record<string, unknown>;
  nodes: number;
  /** The schemas references are being followed into, to see one lead back to itself. */
  following: unknown[];
  patterns: Map<string, string>;
}

interface Both {
  listed: unknown;
  checked: unknown;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function listOf(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value) || value.length > MAX_LIST) return fail(`its input schema has a malformed ${what}`);
  return value;
}

function resolve(ref: string, root: Record<string, unknown>): unknown {
  if (ref === '#') return root;
  const match = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
  const defs = match ? root[match[1]!] : undefined;
  if (!match || !isObject(defs)) return undefined;
  const key = match[2]!.replace(/~1/g, '/').replace(/~0/g, '~');
  return Object.hasOwn(defs, key) ? defs[key] : undefined;
}

function reference(node: Record<string, unknown>, walk: Walk, depth: number): Both {
  const { $ref: ref, ...rest } = node;
  if (typeof ref !== 'string') return fail('its input schema has a $ref that is not text');
  const shown = cleanPageText(ref, 60);
  if (Object.keys(rest).some((key) => !NOTES.has(key))) {
    // Keywords beside a reference apply too (JSON Schema 2020-12): both, as an allOf.
    const allOf = rest.allOf === undefined ? [] : listOf(rest.allOf, 'allOf');
    return schema({ ...rest, allOf: [...allOf, { $ref: ref }] }, walk, depth);
  }
  const target = resolve(ref, walk.root);
  if (target === undefined) return fail(`its input schema has a $ref Tabwright cannot follow (${shown})`);
  if (walk.following.includes(target)) {
    return fail(`its input schema refers to itself (${shown}), which Tabwright does not follow`);
  }
  walk.following.push(target);
  // Followed in place, at the depth of the reference: the listed schema is no deeper for it.
  const followed = schema(target, walk, depth);
  walk.following.pop();
  const note = typeof rest.description === 'string' ? cleanPageText(rest.description, MAX_SCHEMA_DESCRIPTION) : '';
  if (note && isObject(followed.listed)) followed.listed = { ...followed.listed, description: FROM_THE_PAGE + note };
  return followed;
}

function schemaMap(value: unknown, walk: Walk, depth: number, keyOk: (key: string) => void): Both {
  if (!isObject(value) || Object.keys(value).length > MAX_LIST)
    return fail('its input schema has a malformed property list');
  const listed: Record<string, unknown> = {};
  const checked: Record<string, unknown> = {};
  for (const [key, sub] of Object.entries(value)) {
    keyOk(key);
    const both = schema(sub, walk, depth + 1);
    // Own properties even for a name like __proto__, which a plain assignment would not make.
    Object.defineProperty(listed, key, { value: both.listed, enumerable: true, writable: true, configurable: true });
    Object.defineProperty(checked, key, { value: both.checked, enumerable: true, writable: true, configurable: true });
  }
  return { listed, checked };
}

function schema(node: unknown, walk: Walk, depth: number): Both {
  if (typeof node === 'boolean') return { listed: node, checked: node };
  if (!isObject(node)) return fail('its input schema has a part that is not a schema');
  if (depth > MAX_DEPTH) return fail('its input schema is nested too deeply');
  if (++walk.nodes > MAX_NODES) return fail('its input schema is too large once its references are followed');
  if ('$ref' in node) return reference(node, walk, depth);
  const listed: Record<string, unknown> = {};
  const checked: Record<string, unknown> = {};
  let patternPropertiesUnchecked = false;
  const both = (key: string, value: Both) => {
    listed[key] = value.listed;
    checked[key] = value.checked;
  };
  for (const [key, value] of Object.entries(node)) {
    if (key === 'type') {
      const types = Array.isArray(value) ? value : [value];
      if (!types.length || types.some((type) => typeof type !== 'string' || !TYPES.has(type))) {
        fail('its input schema names a type JSON Schema does not have');
      }
      both(key, { listed: value, checked: value });
    } else if (key === 'enum') {
      const values = listOf(value, 'enum').map(plainValue);
      both(key, { listed: values, checked: values });
    } else if (key === 'const') {
      const plain = plainValue(value);
      both(key, { listed: plain, checked: plain });
    } else if (NUMBERS.includes(key)) {
      if (typeof value === 'number' && Number.isFinite(value)) both(key, { listed: value, checked: value });
      // Draft 4 spells exclusive bounds as booleans beside minimum and maximum.
      else if (typeof value === 'boolean' && key.startsWith('exclusive')) both(key, { listed: value, checked: value });
    } else if (key === 'uniqueItems') {
      if (typeof value === 'boolean') both(key, { listed: value, checked: value });
    } else if (key === 'required') {
      const names = listOf(value, 'required list').map((name) => {
        if (typeof name !== 'string') return fail('its input schema has a malformed required list');
        plainName(name);
        return name;
      });
      both(key, { listed: names, checked: names });
    } else if (key === 'properties') {
      both(key, schemaMap(value, walk, depth, plainName));
    } else if (key === 'patternProperties') {
      const map = schemaMap(value, walk, depth, pageRegex);
      listed[key] = map.listed;
      const guarded = Object.keys(map.checked as object).map((pattern) => checkedPattern(pattern, walk.patterns));
      if (guarded.every((pattern) => pattern !== undefined)) {
        checked[key] = Object.fromEntries(
          Object.values(map.checked as object).map((sub: unknown, i) => [guarded[i]!, sub]),
        );
      } else {
        // Which names a pattern Tabwright will not run allows is the page's to check.
        patternPropertiesUnchecked = true;
      }
    } else if (key === 'pattern') {
      listed[key] = pageRegex(value);
      const guarded = checkedPattern(value as string, walk.patterns);
      if (guarded !== undefined) checked[key] = guarded;
    } else if (key === 'format') {
      if (typeof value === 'string' && FORMAT_NAME.test(value)) listed[key] = value;
    } else if (key === 'description') {
      const text = cleanPageText(value, MAX_SCHEMA_DESCRIPTION);
      if (text) listed[key] = FROM_THE_PAGE + text;
    } else if (key === 'not') {
      // zod checks only `not: {}` (nothing is valid).
      if (!isObject(value) || Object.keys(value).length)
        fail('its input schema uses not, which Tabwright cannot check');
      both(key, { listed: {}, checked: {} });
    } else if (UNCHECKABLE.includes(key)) {
      fail(`its input schema uses ${key}, which Tabwright cannot check`);
    } else if (ONE_SCHEMA.includes(key)) {
      if (key === 'items' && Array.isArray(value)) {
        const items = listOf(value, 'items list').map((item) => schema(item, walk, depth + 1));
        both(key, { listed: items.map((item) => item.listed), checked: items.map((item) => item.checked) });
      } else both(key, schema(value, walk, depth + 1));
    } else if (SCHEMA_LISTS.includes(key)) {
      const items = listOf(value, key).map((item) => schema(item, walk, depth + 1));
      both(key, { listed: items.map((item) => item.listed), checked: items.map((item) => item.checked) });
    }
    // Anything else (title, examples, default, $comment, $id, $defs, x-…) is for neither.
  }
  if (patternPropertiesUnchecked && checked.additionalProperties === false) delete checked.additionalProperties;
  return { listed, checked };
}

/** The page's object schema as listed and as checked, or why the tool is left out. */
export function readPageSchema(raw: Record<string, unknown>): PageSchema | { problem: string } {
  const walk: Walk = { root: raw, nodes: 0, following: [], patterns: new Map() };
  try {
    const { listed, checked } = schema(raw, walk, 0) as {
      listed: Record<string, unknown>;
      checked: Record<string, unknown>;
    };
    if (JSON.stringify(listed).length > MAX_LISTED_CHARS)
      return { problem: 'its input schema is too large once its references are followed' };
    return { listed: { ...listed, type: 'object' }, checked: { ...checked, type: 'object' }, patterns: walk.patterns };
  } catch (error) {
    if (error instanceof SchemaProblem) return { problem: error.message };
    throw error;
  }
}
