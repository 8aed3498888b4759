/**
 * How an action line names the element it acted on: `<button> "Count"`, `<input type=email>
 * "Work email"`. The name is the accessible name, neutralised like every page string the model reads.
 */
import { computeAccessibleName } from 'dom-accessibility-api';
import { clip, neutraliseText } from '../../shared/text/line';

const NAME_LIMIT = 60;

export function describeElement(element: Element): string {
  const tag = element.localName;
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
