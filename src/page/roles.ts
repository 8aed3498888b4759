/**
 * Which roles get a ref, which are containers named only by their content, and the states a line
 * shows. Roles themselves come from dom-accessibility-api's `getRole`.
 */
import { getRole } from 'dom-accessibility-api';
import { inputStates, unmappedInputRole } from './input-states';
import { clip, neutraliseText } from '../shared/text/line';
import { ACTION_EVENT_TYPES } from './listener-channel';
import { isSecretField } from './secret-field';
import { renderLine, renderTextLine } from './snapshot-line';

/** Roles a user acts on: these lines carry a ref. */
export const INTERACTIVE_ROLES = new Set([
  'button',
  'checkbox',
  'combobox',
  'link',
  'listbox',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'scrollbar',
  'searchbox',
  'slider',
  'spinbutton',
  'switch',
  'tab',
  'textbox',
  'treeitem',
]);

/** Cursors a page sets on what can be clicked or dragged. */
const ACTION_CURSORS = new Set(['pointer', 'move', 'grab']);
const INLINE_HANDLERS = new Set(ACTION_EVENT_TYPES.map((type) => `on${type}`));

/** A row of column headers only: what a grid's script acts on are its items, not its header row. */
function isHeaderRow(row: Element): boolean {
  return !row.querySelector('td, [role=gridcell], [role=rowheader], th[scope=row]');
}

/**
 * Why an element a snapshot would print without a ref is still something a person acts on:
 * - `item`: an item of a composite widget (a grid's cell or row), which the widget's own script
 *   makes clickable whatever its tabindex;
 * - `cursor`: the page shows a hand, a move or a grab cursor over it, and not already over its parent;
 * - `handler`: an inline `onclick` (or mouse, pointer, key) handler;
 * - `focusable`: it is in the tab order and named by its author or its title (a pager's
 *   `<li title="Next Page" tabindex="0">`), so it keeps its own line and name whatever is inside.
 * Own listeners, which only the main-world record knows, are asked after these (snapshot.ts).
 */
export function actionSignal(
  element: Element,
  tag: string,
  role: string | null,
  cursor: string,
  parentCursor: string,
): 'item' | 'cursor' | 'handler' | 'focusable' | undefined {
  if (
    role === 'gridcell' ||
    (role === 'row' && element.closest('[role=grid], [role=treegrid]') && !isHeaderRow(element))
  )
    return 'item';
  if (ACTION_CURSORS.has(cursor) && cursor !== parentCursor && tag !== 'label') return 'cursor';
  const attributes = element.attributes;
  for (let i = 0; i < attributes.length; i++) {
    const name = attributes[i]!.name;
    if (name.startsWith('on') && INLINE_HANDLERS.has(name)) return 'handler';
  }
  if (
    element.hasAttribute('tabindex') &&
    (element as HTMLElement).tabIndex >= 0 &&
    (hasAuthorName(element) || !!element.getAttribute('title'))
  )
    return 'focusable';
  return undefined;
}

/** Wrappers with no meaning of their own: their children are shown in their place. */
export const FLATTENED_ROLES = new Set(['generic', 'none', 'presentation', 'paragraph', 'rowgroup']);

/**
 * Content-named wrappers that add nothing but their role when they hold exactly one element line
 * and carry no name, ref or state: that line takes their place (a table cell holding one link, a
 * list item holding one link). Their parent (row, list) still says what they were.
 */
export const HOISTED_WRAPPERS = new Set([
  'cell',
  'gridcell',
  'listitem',
  'term',
  'definition',
  'emphasis',
  'strong',
  'code',
]);

/**
 * Containers whose name, unless the author gave one, is just their content. When their children are
 * shown the name is not repeated; when the content is plain text it becomes the name on one line.
 */
export const CONTENT_NAMED_ROLES = new Set([
  'cell',
  'gridcell',
  'columnheader',
  'rowheader',
  'row',
  'listitem',
  'heading',
  'caption',
  'term',
  'definition',
  'tooltip',
  'status',
  'blockquote',
  'emphasis',
  'strong',
  'code',
  'legend',
  'article',
  'figure',
]);

/** Elements whose content is not page text to walk (their value or options are shown instead). */
export const LEAF_TAGS = new Set([
  'input',
  'textarea',
  'select',
  'img',
  'progress',
  'meter',
  'svg',
  'canvas',
  'video',
  'audio',
]);

/** Never content. */
export const SKIPPED_TAGS = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'head',
  'meta',
  'link',
  'title',
  'base',
]);

export function hasAuthorName(element: Element): boolean {
  return element.hasAttribute('aria-label') || element.hasAttribute('aria-labelledby');
}

/** The roles WAI-ARIA 1.2 and 1.3 define that an element may take, DPUB's `doc-…` and the graphics roles. */
const ARIA_ROLES = new Set(
  (
    'alert alertdialog application article banner blockquote button caption cell checkbox code columnheader ' +
    'combobox comment complementary contentinfo definition deletion dialog directory document emphasis feed ' +
    'figure form generic grid gridcell group heading image img insertion link list listbox listitem log main ' +
    'mark marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option ' +
    'paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search ' +
    'searchbox sectionfooter sectionheader separator slider spinbutton status strong subscript suggestion ' +
    'superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem ' +
    'graphics-document graphics-object graphics-symbol'
  ).split(' '),
);
const DPUB_ROLE = /^doc-[a-z]+$/;
const PRESENTATION = new Set(['none', 'presentation']);

/** The element seen without its role attribute, for the role its tag and attributes give it. */
function withoutRoleAttribute(element: Element): Element {
  return new Proxy(element, {
    get(target, key) {
      if (key === 'getAttribute') return (name: string) => (name === 'role' ? null : target.getAttribute(name));
      if (key === 'hasAttribute') return (name: string) => name !== 'role' && target.hasAttribute(name);
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * `getRole`, taking from the role attribute only a role ARIA defines. The library returns the
 * attribute's first space-separated token as written, so a page could put a line break, a bracket
 * or a colon into the printed role and forge a line, a ref or a table row. As browsers do, a token
 * that is not a role is passed over for the next; with none left, the element has the role its tag
 * gives it.
 */
function ariaRole(element: Element): string | null {
  const written = element.getAttribute('role');
  if (written === null) return getRole(element);
  const role = written
    .toLowerCase()
    .split(/[\t\n\f\r ]+/)
    .find((token) => ARIA_ROLES.has(token) || DPUB_ROLE.test(token));
  // The library's own answer when it read the same word: it settles presentation conflicts.
  if (role !== undefined && role === written.trim().split(' ')[0]) return getRole(element);
  if (role !== undefined && !PRESENTATION.has(role)) return role;
  return getRole(withoutRoleAttribute(element));
}

/** `getRole`, adjusted where a snapshot needs more than the HTML mapping gives. */
export function snapshotRole(element: Element, tag: string, visible: boolean): string | null {
  let role = ariaRole(element) ?? unmappedInputRole(element);
  // Only the editing host is a text box: its descendants are editable too but are its content.
  if (visible && (!role || role === 'generic') && element.getAttribute('contenteditable') !== null) {
    if ((element as HTMLElement).isContentEditable) role = 'textbox';
  }
  // An editor on an EditContext takes typed text as a text box does.
  if (visible && (!role || role === 'generic') && (element as { editContext?: unknown }).editContext) role = 'textbox';
  // HTML-AAM leaves password fields without a role; they are text boxes to everyone who types.
  if (!role && tag === 'input' && (element as HTMLInputElement).type === 'password') return 'textbox';
  // Groups matter when named (a fieldset by its legend); unnamed ones are just wrappers.
  if (role === 'group' && !hasAuthorName(element)) {
    if (!(tag === 'fieldset' && element.querySelector(':scope > legend'))) return null;
  }
  if ((role === 'form' || role === 'region') && !hasAuthorName(element)) return null;
  return role;
}

const VALUE_MAX = 200;
const OPTIONS_MAX = 100;

/** A native select's options, listed under it (they take no refs: select_option picks by label). */
export function optionLines(select: HTMLSelectElement, depth: number): string[] {
  const options = select.options;
  const shown = Math.min(options.length, OPTIONS_MAX);
  const lines: string[] = [];
  for (let i = 0; i < shown; i++) {
    const option = options[i]!;
    let states = '';
    if (option.selected) states += ' [selected]';
    if (option.disabled) states += ' [disabled]';
    lines.push(
      renderLine({ depth, role: 'option', name: clip(neutraliseText(option.label || option.text), 500), states }),
    );
  }
  if (options.length > shown) lines.push(renderTextLine(depth, `… ${options.length - shown} more options`));
  return lines;
}
const TEXT_INPUT_TYPES = new Set([
  'text',
  'search',
  'email',
  'url',
  'tel',
  'number',
  'range',
  'date',
  'datetime-local',
  'month',
  'week',
  'time',
  'color',
  '',
]);

type Aria = Record<string, string>;

const ARIA_STATES = new Set([
  'aria-checked',
  'aria-pressed',
  'aria-selected',
  'aria-expanded',
  'aria-level',
  'aria-disabled',
  'aria-required',
  'aria-readonly',
  'aria-invalid',
  'aria-valuetext',
  'aria-valuenow',
  'aria-current',
  'aria-sort',
]);

/** `aria-current` values that print as themselves; any other but `false` reads as plain `[current]`. */
const CURRENT_KINDS = new Set(['page', 'step', 'location', 'date', 'time']);
/** `aria-sort` values worth a mark: `none` is the same as no mark. */
const SORT_ORDERS = new Set(['ascending', 'descending', 'other']);

/** Which item of a set is the current one (a page in a nav, a step, today), as a person sees it highlighted. */
function currentState(value: string | undefined): string | undefined {
  const token = value?.trim().toLowerCase();
  if (token === undefined || token === '' || token === 'false') return undefined;
  return CURRENT_KINDS.has(token) ? `[current=${token}]` : '[current]';
}

/**
 * The aria states an element sets. Its own few attributes are looked through once, rather than
 * asking for each state by name: most elements set none of them.
 */
function ariaOf(element: Element): Aria | undefined {
  let aria: Aria | undefined;
  const attributes = element.attributes;
  for (let i = 0; i < attributes.length; i++) {
    const { name, value } = attributes[i]!;
    if (name.startsWith('aria-') && ARIA_STATES.has(name)) (aria ??= {})[name] = value;
  }
  return aria;
}

function ariaState(aria: Aria | undefined, name: string): string | undefined {
  const value = aria?.[name];
  if (value === undefined) return undefined;
  const label = name.slice(5);
  if (label === 'expanded') return value === 'true' || value === 'false' ? `[expanded=${value}]` : undefined;
  if (value === 'true') return `[${label}]`;
  if (value === 'mixed') return `[${label}=mixed]`;
  return undefined;
}

function headingLevel(element: Element, aria: Aria | undefined): number | undefined {
  const explicit = Number(aria?.['aria-level']);
  if (Number.isInteger(explicit) && explicit > 0) return explicit;
  const match = /^h([1-6])$/.exec(element.localName);
  return match ? Number(match[1]) : undefined;
}

function controlValue(element: Element, aria: Aria | undefined): string | undefined {
  if (element instanceof HTMLInputElement) {
    // A secret's value is never shown, not even its length, nor once the page shows it as text.
    if (!TEXT_INPUT_TYPES.has(element.type) || isSecretField(element)) return undefined;
    return element.value || undefined;
  }
  if (element instanceof HTMLTextAreaElement) return isSecretField(element) ? undefined : element.value || undefined;
  if (element instanceof HTMLSelectElement) {
    const chosen = [...element.selectedOptions].map((option) => option.label || option.text);
    return chosen.length ? chosen.join(', ') : undefined;
  }
  if (element instanceof HTMLProgressElement || element instanceof HTMLMeterElement) return String(element.value);
  return aria?.['aria-valuetext'] ?? aria?.['aria-valuenow'];
}

/** The bracketed states of one element (with a leading space), or '' when it has none. */
export function statesOf(element: Element, role: string): string {
  const out: string[] = [];
  const aria = ariaOf(element);
  const html = element as HTMLInputElement;
  if (html instanceof HTMLInputElement && (html.type === 'checkbox' || html.type === 'radio')) {
    if (html.indeterminate) out.push('[checked=mixed]');
    else if (html.checked) out.push('[checked]');
  } else {
    const checked = ariaState(aria, 'aria-checked');
    if (checked) out.push(checked);
  }
  const pressed = ariaState(aria, 'aria-pressed');
  if (pressed) out.push(pressed);
  if (element instanceof HTMLOptionElement ? element.selected : aria?.['aria-selected'] === 'true')
    out.push('[selected]');
  if (element.localName === 'summary' && element.parentElement instanceof HTMLDetailsElement) {
    out.push(element.parentElement.open ? '[expanded=true]' : '[expanded=false]');
  } else {
    const expanded = ariaState(aria, 'aria-expanded');
    if (expanded) out.push(expanded);
  }
  const current = currentState(aria?.['aria-current']);
  if (current) out.push(current);
  if (role === 'heading') {
    const level = headingLevel(element, aria);
    if (level) out.push(`[level=${level}]`);
  }
  const sort = aria?.['aria-sort']?.trim().toLowerCase();
  if (sort && SORT_ORDERS.has(sort)) out.push(`[sort=${sort}]`);
  const formControl = 'disabled' in html;
  const disabled = (formControl && element.matches(':disabled')) || aria?.['aria-disabled'] === 'true';
  if (disabled) out.push('[disabled]');
  if ((formControl && html.required) || aria?.['aria-required'] === 'true') out.push('[required]');
  if ((formControl && html.readOnly && !disabled) || aria?.['aria-readonly'] === 'true') out.push('[readonly]');
  if (aria?.['aria-invalid'] === 'true') out.push('[invalid]');
  const value = controlValue(element, aria);
  if (value !== undefined && value !== '') out.push(`[value="${clip(neutraliseText(value), VALUE_MAX)}"]`);
  out.push(...inputStates(element));
  return out.length ? ` ${out.join(' ')}` : '';
}
