/**
 * Secrets never reach the audit log, a confirmation card or a tool result: argument values under
 * secret-like keys, values aimed at password fields, and values the user marked as secret are
 * masked wherever they appear.
 */
import { neutraliseText } from '../../shared/text/line';
import type { CallToolResult, ContentBlock } from '../response';
import { contentSummary } from '../file-content';
import { showInvisible } from '../../shared/text/invisible';
import { defuseWrappers } from '../../shared/text/wrappers';
import { TargetArg, targetText } from '../target-args';

/** Words that name a secret on their own, as a whole segment of a key. */
const SECRET_WORDS = new Set([
  'password',
  'passwords',
  'passwd',
  'pass',
  'passphrase',
  'passcode',
  'pwd',
  'secret',
  'secrets',
  'token',
  'tokens',
  'auth',
  'authorization',
  'credential',
  'credentials',
  'cookie',
  'cookies',
  'apikey',
  'otp',
  'pin',
  'cvv',
  'cvc',
]);
/** Pairs of adjacent segments that name a secret together (`api_key`, `sessionId`). */
const SECRET_PAIRS = new Set(['api key', 'private key', 'access key', 'secret key', 'session id', 'card number']);
/** Run-together segments that end in a secret word (`accesstoken`, `newpassword`, `sessionid`). */
const SECRET_ENDINGS = /(password|passwd|passphrase|token|secret|apikey|sessionid|privatekey|credentials?)$/;

/** A key's words: camelCase, snake_case, kebab-case, dotted and spaced keys alike, digits dropped. */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

/** Whether an argument's key names a secret: `password`, `x-auth-token`, `apiKey`, not `author` or `bypass_review`. */
export function isSecretKey(key: string): boolean {
  const words = keyWords(key);
  return words.some(
    (word, i) =>
      SECRET_WORDS.has(word) || SECRET_ENDINGS.test(word) || (i > 0 && SECRET_PAIRS.has(`${words[i - 1]} ${word}`)),
  );
}

export const MASK = '••••••';

/** Below this length a value is masked where it stands but not searched for inside other text. */
export const MIN_SCRUB_LENGTH = 4;

/** Longest string kept in an audit entry; the rest is summarised, so one call cannot bloat the log. */
export const AUDIT_STRING_LIMIT = 2_000;
const AUDIT_ARRAY_LIMIT = 200;

function targetKey(object: Record<string, unknown>): string | undefined {
  if (typeof object.ref === 'string') return object.ref;
  if (typeof object.selector === 'string') return object.selector;
  const target = TargetArg.safeParse(object.target);
  return target.success ? targetText(target.data) : undefined;
}

/**
 * The ways a secret can appear in a result. Page text is neutralised (quotes and brackets swapped
 * for look-alikes) and markup escaped inside the page, before the panel sees it; so the scrub
 * masks each secret in every form that treatment gives it, which masks exactly what scrubbing
 * the text before it was neutralised would have.
 */
export function secretForms(value: string): string[] {
  const html = value.replace(/&/g, '&amp;').replace(/\u00a0/g, '&nbsp;');
  const forms = [
    value,
    neutraliseText(value),
    defuseWrappers(value),
    html.replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    html.replace(/"/g, '&quot;'),
    html.replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;'),
    JSON.stringify(value).slice(1, -1),
  ];
  return [...new Set(forms)].filter((form) => form.length >= MIN_SCRUB_LENGTH);
}

function maskValues(text: string, values: readonly string[]): string {
  let out = text;
  for (const value of values) {
    if (value.length < MIN_SCRUB_LENGTH) continue;
    // Longest first: a form that contains another is masked whole.
    for (const form of secretForms(value).sort((a, b) => b.length - a.length)) out = out.split(form).join(MASK);
  }
  return out;
}

export interface Secrets {
  /** Refs/selectors that name password fields (and targets, as `targetText` shows them). */
  targets?: ReadonlySet<string>;
  /** Values the user marked as secret. */
  values?: readonly string[];
  /** Keys whose values are file contents: shown as their size. */
  contents?: readonly string[];
}

export function redactArgs(args: Record<string, unknown>, secrets: Secrets = {}): Record<string, unknown> {
  const targets = secrets.targets ?? new Set<string>();
  const values = secrets.values ?? [];
  const contents = secrets.contents ?? [];
  const visit = (value: unknown, key: string | undefined): unknown => {
    if (key !== undefined && contents.includes(key)) return contentSummary(value);
    if (key !== undefined && isSecretKey(key)) return MASK;
    if (typeof value === 'string') return values.includes(value) ? MASK : maskValues(value, values);
    if (Array.isArray(value)) return value.map((item) => visit(item, undefined));
    if (value && typeof value === 'object') {
      const object = value as Record<string, unknown>;
      const target = targetKey(object);
      const secretTarget = target !== undefined && targets.has(target);
      return Object.fromEntries(
        Object.entries(object).map(([k, v]) => [
          k,
          secretTarget && (k === 'value' || k === 'text') ? MASK : visit(v, k),
        ]),
      );
    }
    return value;
  };
  return visit(args, undefined) as Record<string, unknown>;
}

/** The plain values that were masked because they go into password fields: to scrub from results. */
export function secretValuesIn(args: Record<string, unknown>, targets: ReadonlySet<string>): string[] {
  const found: string[] = [];
  const visit = (value: unknown) => {
    if (Array.isArray(value)) return value.forEach(visit);
    if (!value || typeof value !== 'object') return;
    const object = value as Record<string, unknown>;
    const target = targetKey(object);
    if (target !== undefined && targets.has(target)) {
      for (const k of ['text', 'value'])
        if (typeof object[k] === 'string' && object[k]) found.push(object[k] as string);
    }
    Object.values(object).forEach(visit);
  };
  visit(args);
  return found;
}

/**
 * Shortens long strings and arrays so an audit entry stays small, and shows invisible characters
 * by their code points: the log is read by a person, who must see `invoice⟨U+202E⟩fdp.exe`.
 */
export function boundForAudit(args: Record<string, unknown>): Record<string, unknown> {
  const visit = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const cut =
        value.length > AUDIT_STRING_LIMIT
          ? `${value.slice(0, AUDIT_STRING_LIMIT)}… [${value.length - AUDIT_STRING_LIMIT} more characters]`
          : value;
      return showInvisible(cut);
    }
    if (Array.isArray(value)) {
      const kept = value.slice(0, AUDIT_ARRAY_LIMIT).map(visit);
      if (value.length > AUDIT_ARRAY_LIMIT) kept.push(`… [${value.length - AUDIT_ARRAY_LIMIT} more items]`);
      return kept;
    }
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value as Record<string, unknown>).map(([k, v]) => [showInvisible(k), visit(v)]),
      );
    }
    return value;
  };
  return visit(args) as Record<string, unknown>;
}

/** Masks secret values in a tool result: text blocks and structured content alike. */
export function scrubResult(result: CallToolResult, values: readonly string[]): CallToolResult {
  const usable = values.filter((value) => value.length >= MIN_SCRUB_LENGTH);
  if (!usable.length) return result;
  const scrub = (value: unknown): unknown => {
    if (typeof value === 'string') return maskValues(value, usable);
    if (Array.isArray(value)) return value.map(scrub);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, scrub(v)]));
    }
    return value;
  };
  const content = result.content.map((block): ContentBlock =>
    block.type === 'text' ? { ...block, text: maskValues(block.text, usable) } : block,
  );
  const scrubbed: CallToolResult = { ...result, content };
  if (result.structuredContent) scrubbed.structuredContent = scrub(result.structuredContent) as Record<string, unknown>;
  return scrubbed;
}
