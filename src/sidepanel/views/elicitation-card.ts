/**
 * An agent's request for input (`elicitation/create`), answered in place like a permission request.
 * Form mode draws the requested fields and sends nothing until every entry passes the schema; URL
 * mode shows the whole address as text and opens it in a new tab only on the user's click. Every
 * string from the agent goes in as text, never as markup.
 */
import type { CreateElicitationResponse } from '@agentclientprotocol/sdk/unstable';
import type { SegmentOf } from '../chat-types';
import { showAddress } from '../../shared/text/address';
import { showInvisible } from '../../shared/text/invisible';
import { h } from '../dom';
import { validateEntries, type ElicitationField, type Problem, type RawEntries } from '../elicitation-form';
import { t } from '../i18n';
import { icon } from './icons';

export interface ElicitationHandlers {
  awaiting: boolean;
  answer(response: CreateElicitationResponse): void;
  /** Opens an http(s) address in a new tab. */
  openUrl(url: string): Promise<void>;
}

const say = (problem: Problem) => t(problem.key, ...problem.args);

/** Only web addresses leave the panel as a tab. */
export function openableUrl(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

interface FieldView {
  field: ElicitationField;
  element: HTMLElement;
  /** Where focus goes when the entry needs fixing. */
  focusable: HTMLElement;
  error: HTMLElement;
  read(): RawEntries[string];
  invalid(on: boolean): void;
}

function labelText(field: ElicitationField): (Node | string)[] {
  return [
    field.label,
    field.required ? h('span', { className: 'required-mark' }, ` (${t('elicitRequiredMark')})`) : '',
  ];
}

function fieldView(field: ElicitationField, id: string): FieldView {
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const error = h('p', { className: 'field-error', id: errorId, hidden: true });
  const hint = field.description ? h('p', { className: 'hint', id: hintId }, field.description) : null;
  const describedBy = [hint ? hintId : '', errorId].filter(Boolean).join(' ');
  const aria = { 'aria-describedby': describedBy, 'aria-required': field.required ? 'true' : undefined };
  const wrap = (...children: (Node | null)[]) => h('div', { className: `field field-${field.kind}` }, ...children);

  switch (field.kind) {
    case 'boolean': {
      const input = h('input', { type: 'checkbox', id, name: field.name, ...aria });
      input.checked = field.default ?? false;
      return {
        field,
        focusable: input,
        error,
        element: wrap(h('label', { className: 'check', for: id }, input, h('span', {}, field.label)), hint, error),
        read: () => input.checked,
        invalid: (on) => input.setAttribute('aria-invalid', String(on)),
      };
    }
    case 'choice': {
      const select = h(
        'select',
        { id, name: field.name, ...aria },
        h('option', { value: '' }, t('elicitChoose')),
        ...field.options.map((option) => h('option', { value: option.value }, option.title)),
      );
      select.value = field.default ?? '';
      return {
        field,
        focusable: select,
        error,
        element: wrap(h('label', { for: id }, ...labelText(field)), hint, select, error),
        read: () => select.value,
        invalid: (on) => select.setAttribute('aria-invalid', String(on)),
      };
    }
    case 'multi': {
      const boxes = field.options.map((option, index) => {
        const box = h('input', { type: 'checkbox', id: `${id}-${index}`, value: option.value });
        box.checked = field.default?.includes(option.value) ?? false;
        return {
          box,
          label: h('label', { className: 'check', for: `${id}-${index}` }, box, h('span', {}, option.title)),
        };
      });
      const group = h(
        'fieldset',
        { id, ...aria },
        h('legend', {}, ...labelText(field)),
        hint,
        ...boxes.map(({ label }) => label),
        error,
      );
      return {
        field,
        focusable: boxes[0]?.box ?? group,
        error,
        element: h('div', { className: 'field field-multi' }, group),
        read: () => boxes.filter(({ box }) => box.checked).map(({ box }) => box.value),
        invalid: (on) => group.setAttribute('aria-invalid', String(on)),
      };
    }
    default: {
      const type =
        field.kind === 'text' && field.format === 'email'
          ? 'email'
          : field.kind === 'text' && field.format === 'uri'
            ? 'url'
            : 'text';
      const inputmode = field.kind === 'number' ? (field.integer ? 'numeric' : 'decimal') : undefined;
      const input = h('input', {
        type: field.kind === 'text' && field.format === 'date' ? 'date' : type,
        id,
        name: field.name,
        inputmode,
        autocomplete: 'off',
        ...aria,
      });
      if (field.default !== undefined) input.value = String(field.default);
      const placeholder = field.kind === 'text' && field.format === 'date-time' ? '2026-12-01T14:30:00Z' : undefined;
      if (placeholder) input.placeholder = placeholder;
      return {
        field,
        focusable: input,
        error,
        element: wrap(h('label', { for: id }, ...labelText(field)), hint, input, error),
        read: () => input.value,
        invalid: (on) => input.setAttribute('aria-invalid', String(on)),
      };
    }
  }
}

function outcomeText(segment: SegmentOf<'elicitation'>): string {
  switch (segment.outcome?.action) {
    case 'accept':
      return segment.mode === 'url' ? t('elicitOpened') : t('elicitAccepted');
    case 'decline':
      return t('elicitDeclined');
    default:
      return t('elicitCancelled');
  }
}

function refuseButtons(handlers: ElicitationHandlers): HTMLElement[] {
  return [
    h(
      'button',
      { type: 'button', className: 'danger', onclick: () => handlers.answer({ action: 'decline' }) },
      t('elicitDecline'),
    ),
    h('button', { type: 'button', onclick: () => handlers.answer({ action: 'cancel' }) }, t('cancel')),
  ];
}

function formBody(segment: SegmentOf<'elicitation'>, handlers: ElicitationHandlers): HTMLElement {
  const views = (segment.fields ?? []).map((field, index) => fieldView(field, `${segment.id}-f${index}`));
  const summary = h('p', { className: 'field-error summary', role: 'alert', hidden: true });
  const form = h(
    'form',
    { className: 'elicit-form', novalidate: true },
    ...views.map((view) => view.element),
    summary,
    h(
      'div',
      { className: 'actions' },
      h('button', { type: 'submit', className: 'primary' }, t('elicitSubmit')),
      ...refuseButtons(handlers),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const raw: RawEntries = Object.fromEntries(views.map((view) => [view.field.name, view.read()]));
    const result = validateEntries(
      views.map((view) => view.field),
      raw,
    );
    let first: FieldView | undefined;
    for (const view of views) {
      const problem = result.ok ? undefined : result.errors[view.field.name];
      view.invalid(Boolean(problem));
      view.error.hidden = !problem;
      view.error.textContent = problem ? say(problem) : '';
      if (problem && !first) first = view;
    }
    summary.hidden = result.ok;
    summary.textContent = result.ok ? '' : t('elicitFixFields');
    if (result.ok) handlers.answer({ action: 'accept', content: result.content });
    else first?.focusable.focus();
  });
  return form;
}

/** The address as the user should read it: ASCII host first, its Unicode form only beside it, marked. */
function addressView(address: string): Node[] {
  const shown = showAddress(address);
  // The whole address, as plain text: what the user sees is exactly where the tab would go.
  const main = h('code', { className: 'elicit-address' }, shown?.href ?? showInvisible(address));
  if (!shown?.unicodeHost) return [main];
  return [
    main,
    h(
      'p',
      { className: shown.mixedScripts ? 'elicit-unicode warning' : 'elicit-unicode' },
      t('elicitUrlUnicode', shown.unicodeHost),
      shown.mixedScripts ? ` ${t('elicitUrlMixedScripts')}` : '',
    ),
  ];
}

function urlBody(segment: SegmentOf<'elicitation'>, handlers: ElicitationHandlers): HTMLElement {
  const address = segment.url ?? '';
  const openable = openableUrl(address);
  const open = h('button', { type: 'button', className: 'primary' }, t('elicitUrlOpen'));
  open.addEventListener('click', () => {
    if (!openable) return;
    open.disabled = true;
    void handlers.openUrl(openable).then(
      () => handlers.answer({ action: 'accept' }),
      () => (open.disabled = false),
    );
  });
  return h(
    'div',
    { className: 'elicit-url' },
    h('p', { className: 'card-label' }, t('elicitUrlAddress')),
    ...addressView(address),
    openable ? null : h('p', { className: 'field-error' }, t('elicitUrlNotOpenable')),
    h('div', { className: 'actions' }, ...(openable ? [open] : []), ...refuseButtons(handlers)),
  );
}

export function elicitationCard(
  agentName: string,
  segment: SegmentOf<'elicitation'>,
  handlers: ElicitationHandlers,
): HTMLElement {
  const headingId = `${segment.id}-heading`;
  const heading =
    segment.mode === 'url' && !segment.problem ? t('elicitUrlHeading', agentName) : t('elicitHeading', agentName);
  const card = h(
    'section',
    {
      className: `card elicitation${handlers.awaiting ? ' awaiting' : ''}`,
      role: 'group',
      'aria-labelledby': headingId,
      'data-elicitation': segment.id,
    },
    h('h4', { id: headingId }, icon('alert'), h('span', {}, heading)),
    h('p', { className: 'elicit-message' }, segment.message),
  );
  if (!handlers.awaiting) {
    card.append(h('p', { className: 'outcome', role: 'status' }, outcomeText(segment)));
    return card;
  }
  if (segment.problem) {
    card.append(
      h('p', { className: 'field-error' }, say(segment.problem)),
      h('div', { className: 'actions' }, ...refuseButtons(handlers)),
    );
  } else if (segment.mode === 'url') {
    card.append(urlBody(segment, handlers));
  } else {
    card.append(formBody(segment, handlers));
  }
  // Escape dismisses the request, as closing a dialog would.
  card.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    event.stopPropagation();
    handlers.answer({ action: 'cancel' });
  });
  return card;
}

/** Where focus goes when the request arrives: its first field, else its first button. */
export function firstControl(card: Element): HTMLElement | null {
  return card.querySelector<HTMLElement>('input, select, .actions button');
}
