/**
 * What Enter does when the page leaves it to the browser: in a text field, implicit submission of
 * its form (through the form's default button, so that button's click handlers run as they would);
 * on a button or link, activation.
 */

import { neutraliseText } from '../../shared/text/line';
import { describeElement } from './describe';

const ACTIVATED_BY_ENTER =
  'button, a[href], area[href], summary, input[type=submit], input[type=button], input[type=reset], input[type=image]';

function defaultButton(form: HTMLFormElement): HTMLElement | undefined {
  for (const element of form.elements) {
    if (element instanceof HTMLButtonElement && element.type === 'submit') return element;
    if (element instanceof HTMLInputElement && (element.type === 'submit' || element.type === 'image')) return element;
  }
  return undefined;
}

/** Runs `work` and says whether the form sent a `submit` event meanwhile. */
function watchSubmit(form: HTMLFormElement, work: () => void): boolean {
  let submitted = false;
  const listener = () => (submitted = true);
  form.addEventListener('submit', listener, { capture: true });
  try {
    work();
  } finally {
    form.removeEventListener('submit', listener, { capture: true });
  }
  return submitted;
}

/** Submits the form a field belongs to, as Enter in that field would; returns what happened. */
export function submitFromField(field: Element): string | undefined {
  const form = (field as HTMLInputElement).form ?? field.closest('form');
  if (!form) return undefined;
  const button = defaultButton(form);
  if (button && button.matches(':disabled')) return 'the form was not submitted (its submit button is disabled)';
  const submitted = watchSubmit(form, () => (button ? button.click() : form.requestSubmit()));
  if (submitted) return 'submitted the form';
  const invalid = form.querySelector(':invalid:not(form, fieldset)');
  if (invalid) {
    const message = neutraliseText((invalid as HTMLInputElement).validationMessage ?? '');
    return `the form did not submit: ${describeElement(invalid)} is invalid${message ? ` (${message})` : ''}`;
  }
  return 'the form did not submit (the page handled it)';
}

/** Enter's own default: submit from a text field, activate a button or link. */
export function enterDefault(target: Element): string | undefined {
  if (target instanceof HTMLInputElement && !target.matches(ACTIVATED_BY_ENTER)) {
    if (['checkbox', 'radio', 'file', 'color', 'range'].includes(target.type)) return undefined;
    return submitFromField(target);
  }
  if (target instanceof HTMLElement && target.matches(ACTIVATED_BY_ENTER)) {
    target.click();
    return 'activated it';
  }
  return undefined;
}

/** Space on a native button, checkbox or radio clicks it (on key release, as browsers do). */
export function spaceActivates(target: Element): boolean {
  return (
    target instanceof HTMLButtonElement ||
    target.localName === 'summary' ||
    (target instanceof HTMLInputElement &&
      ['checkbox', 'radio', 'button', 'submit', 'reset', 'image'].includes(target.type))
  );
}
