/**
 * How an action line names the element it acted on: `<button> "Count"`, `<input type=email>
 * "Work email"`. The name is the accessible name, neutralised like every page string the model reads.
 */
import { computeAccessibleName } from 'dom-accessibility-api';
import { clip, neutraliseText } from '../../shared/text/line';

const NAME_LIMIT = 60;

/**
 * A tag name as the action line prints it. The HTML parser takes almost anything as a tag name
 * (`<a[e5]>`, `<x-"y">`), and the line is read as the tool's own words, so a name that is not
 * letters, digits, dots, hyphens and underscores prints as `element`.
 */
function tagOf(element: Element): string {
  const tag = element.localName;
  return /^[a-z][a-z0-9._-]*$/.test(tag) ? tag : 'element';
}

export function describeElement(element: Element): string {
  const tag = tagOf(element);
  const type = element instanceof HTMLInputElement && element.type !== 'text' ? ` type=${element.type}` : '';
  let name = '';
  try {
    name = computeAccessibleName(element);
  } catch {
    // Detached or exotic elements: fall back to what the element shows.
  }
  if (!name) name = element.getAttribute('placeholder') ?? element.getAttribute('title') ?? '';
  // Paragraphs and plain containers have no accessible name: what they say identifies them.
  if (!name && !(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) {
    name = (element as HTMLElement).innerText ?? element.textContent ?? '';
  }
  name = clip(neutraliseText(name), NAME_LIMIT);
  return `<${tag}${type}>${name ? ` "${name}"` : ''}`;
}

/** Text the agent asked for, quoted in an action line (it may come from the page, so neutralised). */
export function quoteText(text: string, limit = 80): string {
  return `"${clip(neutraliseText(text), limit)}"`;
}
