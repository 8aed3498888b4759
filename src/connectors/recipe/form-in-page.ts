/**
 * The page side of a recipe's write steps: fill a field, choose an option by its label, tick a box,
 * click, submit a form, and look for text or an error. Each function runs in the connector's tab
 * through `ctx.evaluate` and is self-contained (Chrome serialises its source): no imports, no
 * closures. The recipe supplies only selectors and values, never code.
 */

export type FormStepResult = { ok: true } | { ok: false; error: string };

/** Types text into an input or textarea the way typing would: the value, then input and change events. */
export function fillInPage(selector: string, value: string): FormStepResult {
  let element: Element | null;
  try {
    element = document.querySelector(selector);
  } catch {
    return { ok: false, error: `The selector ${selector} is not valid CSS.` };
  }
  if (!(element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement)) {
    return { ok: false, error: `No text field matches ${selector}.` };
  }
  if (element.disabled || element.readOnly) return { ok: false, error: `The field ${selector} cannot be edited.` };
  const proto = element instanceof HTMLInputElement ? HTMLInputElement.prototype : HTMLTextAreaElement.prototype;
  // The prototype's setter, so frameworks that track the value see the change.
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(element, value);
  element.dispatchEvent(new Event('input', { bubbles: true }));
  element.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true };
}

/** Chooses the option whose visible label is `label` (case and surrounding spaces ignored). */
export function selectInPage(selector: string, label: string): FormStepResult {
  let element: Element | null;
  try {
    element = document.querySelector(selector);
  } catch {
    return { ok: false, error: `The selector ${selector} is not valid CSS.` };
  }
  if (!(element instanceof HTMLSelectElement)) return { ok: false, error: `No list matches ${selector}.` };
  const tidy = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();
  const options = Array.from(element.options).filter((o) => !o.disabled);
  const wanted = tidy(label).toLowerCase();
  const option = options.find((o) => tidy(o.textContent).toLowerCase() === wanted);
  if (!option) {
    return {
      ok: false,
      error: `"${tidy(label)}" is not a choice of ${selector}. Choices: ${options.map((o) => tidy(o.textContent)).join(', ')}.`,
    };
  }
  element.value = option.value;
  element.dispatchEvent(new Event('input', { bubbles: true }));
  element.dispatchEvent(new Event('change', { bubbles: true }));
  return { ok: true };
}

/** Ticks or clears a checkbox, through a click when it has to change (so the page's handlers run). */
export function checkInPage(selector: string, checked: boolean): FormStepResult {
  let element: Element | null;
  try {
    element = document.querySelector(selector);
  } catch {
    return { ok: false, error: `The selector ${selector} is not valid CSS.` };
  }
  // A box the page does not offer is as good as cleared; one that must be ticked is an error.
  if (element === null && !checked) return { ok: true };
  if (!(element instanceof HTMLInputElement) || (element.type !== 'checkbox' && element.type !== 'radio')) {
    return { ok: false, error: `No checkbox matches ${selector}.` };
  }
  if (element.disabled) return { ok: false, error: `The checkbox ${selector} cannot be changed.` };
  if (element.checked !== checked) element.click();
  if (element.checked !== checked) return { ok: false, error: `The page did not let ${selector} change.` };
  return { ok: true };
}

export function clickInPage(selector: string): FormStepResult {
  let element: Element | null;
  try {
    element = document.querySelector(selector);
  } catch {
    return { ok: false, error: `The selector ${selector} is not valid CSS.` };
  }
  if (!(element instanceof HTMLElement)) return { ok: false, error: `Nothing to click matches ${selector}.` };
  element.click();
  return { ok: true };
}

/**
 * Marks this document, then submits the form as its submit button would (validation and submit
 * handlers included). The mark tells the next document apart from this one.
 */
export function submitInPage(selector: string, mark: string): FormStepResult {
  let form: Element | null;
  try {
    form = document.querySelector(selector);
  } catch {
    return { ok: false, error: `The selector ${selector} is not valid CSS.` };
  }
  if (!(form instanceof HTMLFormElement)) return { ok: false, error: `No form matches ${selector}.` };
  if (!form.checkValidity()) {
    const invalid = form.querySelector(':invalid') as HTMLInputElement | null;
    return {
      ok: false,
      error: `The form is not complete: ${invalid?.name || invalid?.id || 'a field'} ${invalid?.validationMessage ?? 'is invalid'}`,
    };
  }
  document.documentElement.setAttribute('data-tabwright-submitted', mark);
  // Submit once the evaluation has answered, so the answer is not lost to the unloading page.
  setTimeout(() => (form as HTMLFormElement).requestSubmit(), 0);
  return { ok: true };
}

/** True once a new document (without `mark`) has finished loading. */
export function loadedAfterInPage(mark: string): boolean {
  return (
    document.documentElement.getAttribute('data-tabwright-submitted') !== mark && document.readyState === 'complete'
  );
}

/** Waits until `text` shows inside `within` (or the page), up to `timeoutMs`. */
export function textShownInPage(text: string, within: string | null, timeoutMs: number): Promise<FormStepResult> {
  const shown = () => {
    const scope = within ? document.querySelector(within) : document.body;
    return ((scope as HTMLElement | null)?.innerText ?? '').includes(text);
  };
  return new Promise((resolve) => {
    if (shown()) return resolve({ ok: true });
    const observer = new MutationObserver(() => {
      if (shown()) finish(true);
    });
    const timer = setTimeout(() => finish(shown()), timeoutMs);
    const finish = (ok: boolean) => {
      observer.disconnect();
      clearTimeout(timer);
      resolve(
        ok ? { ok: true } : { ok: false, error: `"${text}" did not show within ${Math.round(timeoutMs / 1000)} s.` },
      );
    };
    observer.observe(document, { subtree: true, childList: true, characterData: true });
  });
}

/**
 * What an `expect` step sees: the site's error text when `errorSelector` matches, otherwise
 * whether `selector` matches (and, with `text`, whether one of its matches contains it).
 */
export function expectInPage(
  selector: string,
  text: string | null,
  errorSelector: string | null,
): { error: string | null; found: boolean } {
  const tidy = (value: string | null | undefined) => (value ?? '').replace(/\s+/g, ' ').trim();
  try {
    const error = errorSelector ? document.querySelector(errorSelector) : null;
    if (error)
      return { error: tidy((error as HTMLElement).innerText || error.textContent) || 'an error', found: false };
    const matches = Array.from(document.querySelectorAll(selector));
    const found =
      text === null
        ? matches.length > 0
        : matches.some((m) => tidy((m as HTMLElement).innerText || m.textContent).includes(tidy(text)));
    return { error: null, found };
  } catch {
    return { error: `the selector ${selector} or ${errorSelector} is not valid CSS`, found: false };
  }
}
