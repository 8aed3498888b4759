/**
 * An elicitation's requested schema as form fields, and the user's entries checked against it.
 * Plain data in, plain data out: the card draws the fields and shows the problems, and only
 * content that passes every constraint the schema states is sent back to the agent.
 */
import type { ElicitationContentValue, ElicitationSchema } from '@agentclientprotocol/sdk/unstable';
import type { MessageKey } from './i18n';

export type StringFormat = 'email' | 'uri' | 'date' | 'date-time';

interface FieldBase {
  name: string;
  label: string;
  description?: string;
  required: boolean;
}

export type ElicitationField =
  | (FieldBase & {
      kind: 'text';
      minLength?: number;
      maxLength?: number;
      pattern?: string;
      format?: StringFormat;
      default?: string;
    })
  | (FieldBase & { kind: 'number'; integer: boolean; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: 'boolean'; default?: boolean })
  | (FieldBase & { kind: 'choice'; options: ChoiceOption[]; default?: string })
  | (FieldBase & { kind: 'multi'; options: ChoiceOption[]; minItems?: number; maxItems?: number; default?: string[] });

export interface ChoiceOption {
  value: string;
  title: string;
}

/** A message for the user, as a locale key and its substitutions. */
export interface Problem {
  key: MessageKey;
  args: string[];
}

export type FieldsResult = { fields: ElicitationField[] } | { problem: Problem };

/** What the user has entered, per field: text as typed, a checkbox's state, the chosen values. */
export type RawEntries = Record<string, string | boolean | string[] | undefined>;

export type ValidationResult =
  { ok: true; content: Record<string, ElicitationContentValue> } | { ok: false; errors: Record<string, Problem> };

const FORMATS = new Set<string>(['email', 'uri', 'date', 'date-time']);

type Loose = Record<string, unknown>;

const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

function base(name: string, property: Loose, required: Set<string>): FieldBase {
  const description = str(property.description);
  return {
    name,
    label: str(property.title) || name,
    ...(description ? { description } : {}),
    required: required.has(name),
  };
}

function defined<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as T;
}

function choices(property: Loose): ChoiceOption[] | undefined {
  if (Array.isArray(property.oneOf)) {
    return (property.oneOf as Loose[])
      .filter((option) => typeof option?.const === 'string')
      .map((option) => ({ value: option.const as string, title: str(option.title) || (option.const as string) }));
  }
  if (Array.isArray(property.enum)) {
    return (property.enum as unknown[])
      .filter((v): v is string => typeof v === 'string')
      .map((v) => ({ value: v, title: v }));
  }
  return undefined;
}

/** Turns the requested schema into fields, or says why it cannot be shown. */
export function fieldsOf(schema: ElicitationSchema | undefined): FieldsResult {
  const properties = (schema?.properties ?? {}) as Record<string, Loose>;
  const required = new Set(schema?.required ?? []);
  const fields: ElicitationField[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const common = base(name, property, required);
    switch (property.type) {
      case 'string': {
        const options = choices(property);
        if (options) {
          fields.push(defined({ ...common, kind: 'choice', options, default: str(property.default) }));
          break;
        }
        const pattern = str(property.pattern);
        if (pattern !== undefined) {
          try {
            new RegExp(pattern, 'u');
          } catch {
            return { problem: { key: 'elicitBadPattern', args: [common.label] } };
          }
        }
        const format = str(property.format);
        if (format !== undefined && !FORMATS.has(format)) {
          return { problem: { key: 'elicitUnsupportedField', args: [common.label, `format ${format}`] } };
        }
        fields.push(
          defined({
            ...common,
            kind: 'text',
            minLength: num(property.minLength),
            maxLength: num(property.maxLength),
            pattern,
            format: format as StringFormat | undefined,
            default: str(property.default),
          }),
        );
        break;
      }
      case 'number':
      case 'integer':
        fields.push(
          defined({
            ...common,
            kind: 'number',
            integer: property.type === 'integer',
            minimum: num(property.minimum),
            maximum: num(property.maximum),
            default: num(property.default),
          }),
        );
        break;
      case 'boolean':
        fields.push(
          defined({
            ...common,
            kind: 'boolean',
            default: typeof property.default === 'boolean' ? property.default : undefined,
          }),
        );
        break;
      case 'array': {
        const options = choices((property.items ?? {}) as Loose) ?? choicesOfAnyOf(property.items);
        if (!options) return { problem: { key: 'elicitUnsupportedField', args: [common.label, 'array'] } };
        const selected = Array.isArray(property.default)
          ? (property.default as unknown[]).filter((v): v is string => typeof v === 'string')
          : undefined;
        fields.push(
          defined({
            ...common,
            kind: 'multi',
            options,
            minItems: num(property.minItems),
            maxItems: num(property.maxItems),
            default: selected,
          }),
        );
        break;
      }
      default:
        return { problem: { key: 'elicitUnsupportedField', args: [common.label, String(property.type)] } };
    }
  }
  return { fields };
}

function choicesOfAnyOf(items: unknown): ChoiceOption[] | undefined {
  const anyOf = (items as Loose | undefined)?.anyOf;
  return Array.isArray(anyOf) ? choices({ oneOf: anyOf }) : undefined;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

function validDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function absoluteUrl(text: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:/i.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

function formatProblem(format: StringFormat, text: string): Problem | undefined {
  switch (format) {
    case 'email':
      return EMAIL.test(text) ? undefined : { key: 'elicitFormatEmail', args: [] };
    case 'uri':
      return absoluteUrl(text) ? undefined : { key: 'elicitFormatUri', args: [] };
    case 'date':
      return validDate(text) ? undefined : { key: 'elicitFormatDate', args: [] };
    case 'date-time':
      return DATE_TIME.test(text) && validDate(text.slice(0, 10)) && !Number.isNaN(Date.parse(text))
        ? undefined
        : { key: 'elicitFormatDateTime', args: [] };
  }
}

function textProblem(field: Extract<ElicitationField, { kind: 'text' }>, text: string): Problem | undefined {
  // JSON Schema counts characters, not UTF-16 units.
  const length = [...text].length;
  if (field.minLength !== undefined && length < field.minLength) {
    return { key: 'elicitTooShort', args: [String(field.minLength)] };
  }
  if (field.maxLength !== undefined && length > field.maxLength) {
    return { key: 'elicitTooLong', args: [String(field.maxLength)] };
  }
  if (field.pattern !== undefined && !new RegExp(field.pattern, 'u').test(text)) {
    return { key: 'elicitPattern', args: [field.pattern] };
  }
  return field.format ? formatProblem(field.format, text) : undefined;
}

function numberValue(field: Extract<ElicitationField, { kind: 'number' }>, text: string): number | Problem {
  const value = Number(text);
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) || !Number.isFinite(value)) {
    return { key: field.integer ? 'elicitNotInteger' : 'elicitNotNumber', args: [] };
  }
  if (field.integer && !Number.isInteger(value)) return { key: 'elicitNotInteger', args: [] };
  if (field.minimum !== undefined && value < field.minimum)
    return { key: 'elicitBelowMin', args: [String(field.minimum)] };
  if (field.maximum !== undefined && value > field.maximum)
    return { key: 'elicitAboveMax', args: [String(field.maximum)] };
  return value;
}

/** Checks every entry; the content holds only fields the user filled in (and every checkbox). */
export function validateEntries(fields: readonly ElicitationField[], raw: RawEntries): ValidationResult {
  const content: Record<string, ElicitationContentValue> = {};
  const errors: Record<string, Problem> = {};
  const required: Problem = { key: 'elicitRequired', args: [] };
  for (const field of fields) {
    const entry = raw[field.name];
    switch (field.kind) {
      case 'boolean':
        content[field.name] = entry === true;
        break;
      case 'multi': {
        const chosen = Array.isArray(entry) ? entry.filter((v) => field.options.some((o) => o.value === v)) : [];
        if (chosen.length === 0 && field.required && !field.minItems) errors[field.name] = required;
        else if (
          field.minItems !== undefined &&
          chosen.length < field.minItems &&
          (chosen.length > 0 || field.required)
        )
          errors[field.name] = { key: 'elicitTooFewItems', args: [String(field.minItems)] };
        else if (field.maxItems !== undefined && chosen.length > field.maxItems)
          errors[field.name] = { key: 'elicitTooManyItems', args: [String(field.maxItems)] };
        else if (chosen.length > 0 || field.required) content[field.name] = chosen;
        break;
      }
      default: {
        const text = typeof entry === 'string' ? (field.kind === 'number' ? entry.trim() : entry) : '';
        if (text === '') {
          if (field.required) errors[field.name] = required;
          break;
        }
        if (field.kind === 'choice') {
          if (field.options.some((option) => option.value === text)) content[field.name] = text;
          else errors[field.name] = { key: 'elicitChoice', args: [] };
        } else if (field.kind === 'number') {
          const value = numberValue(field, text);
          if (typeof value === 'number') content[field.name] = value;
          else errors[field.name] = value;
        } else {
          const problem = textProblem(field, text);
          if (problem) errors[field.name] = problem;
          else content[field.name] = text;
        }
      }
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, content };
}
