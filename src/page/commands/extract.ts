/**
 * A connector's declarative read (connectors/fields.ts): named fields from each row, or once from
 * the page. Text follows the rendered layout; secret fields read as the hidden value, by the same
 * rule as snapshots.
 */
import type { z } from 'zod';
import { PageError, type PageEnv } from '../env';
import type { ExtractCommand, ExtractField } from '../protocol';
import { HIDDEN_VALUE, isSecretField } from '../secret-field';

type Value = string | number | null;
type Record_ = Record<string, Value | boolean | Value[]>;

/** innerText keeps the page's line breaks; without layout, source whitespace means nothing, as in HTML. */
function readable(element: Element): string {
  const html = element as HTMLElement;
  if (typeof html.innerText !== 'string' || html.innerText.trim() === '') {
    return (element.textContent ?? '').replace(/[\s\u00a0]+/g, ' ').trim();
  }
  const out: string[] = [];
  for (const line of html.innerText.replace(/\u00a0/g, ' ').split(/\r?\n/)) {
    const tidy = line.replace(/[ \t\f\v]+/g, ' ').trim();
    if (tidy === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(tidy);
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}

const labelKey = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/\s*:$/, '').toLowerCase();

function select(scope: ParentNode, selector: string): Element[] {
  try {
    return Array.from(scope.querySelectorAll(selector));
  } catch {
    throw new PageError(`The selector ${selector} is not valid CSS.`, 'bad-selector');
  }
}

function read(element: Element, field: ExtractField): Value {
  const valueWanted = field.pick === 'value' || field.attribute?.toLowerCase() === 'value';
  if (valueWanted && isSecretField(element)) return HIDDEN_VALUE;
  if (field.attribute) return element.getAttribute(field.attribute);
  if (field.pick === 'href') {
    const link = (element.closest('a[href]') ?? element.querySelector('a[href]')) as HTMLAnchorElement | null;
    return link ? link.href : null;
  }
  if (field.pick === 'value') {
    const value = (element as HTMLInputElement).value;
    return typeof value === 'string' ? value : null;
  }
  const text = readable(element);
  if (field.pick === 'number') {
    const match = /-?\d+(?:\.\d+)?/.exec(text.replace(/(\d),(\d{3})/g, '$1$2'));
    return match ? Number(match[0]) : null;
  }
  return text;
}

function readField(scope: Element | Document, field: ExtractField): Value | boolean | Value[] {
  let matches: Element[];
  if (!field.selector) matches = 'documentElement' in scope ? [scope.documentElement] : [scope];
  else matches = select(scope, field.selector);
  if (field.label !== undefined) {
    const wanted = labelKey(field.label);
    matches = matches
      .filter((element) => labelKey(readable(element)) === wanted)
      .map((element) => element.nextElementSibling)
      .filter((element): element is Element => element !== null);
  }
  if (field.pick === 'exists') return matches.length > 0;
  if (field.all) return matches.map((element) => read(element, field));
  return matches[0] ? read(matches[0], field) : null;
}

export function runExtract(command: z.output<typeof ExtractCommand>, env: PageEnv): Record_[] {
  const document = env.document;
  // A missing `within` reads as an empty region: no rows, not an error.
  const root: ParentNode = command.within
    ? (select(document, command.within)[0] ?? document.createElement('div'))
    : document;
  const scopes: Array<Element | Document> = command.rows ? select(root, command.rows) : [document];
  const limited = command.limit ? scopes.slice(0, command.limit) : scopes;
  return limited.map((scope) => {
    const record: Record_ = {};
    for (const [name, field] of Object.entries(command.fields)) record[name] = readField(scope, field);
    return record;
  });
}
