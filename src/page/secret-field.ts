/**
 * The one answer to "does this field hold a secret?", asked wherever a field's value could leave
 * the page: snapshot lines (and so `find` and diffs), action results, and which typed values the
 * panel masks. A field stays secret once it has been a password field in this document: a page's
 * "Show password" toggle turns it into `type=text`, and what it holds is no less a password.
 */

/** Autocomplete tokens of secret fields, whatever their type. */
export const SECRET_AUTOCOMPLETE_TOKENS: readonly string[] = [
  'current-password',
  'new-password',
  'one-time-code',
  'cc-number',
  'cc-csc',
];

/** What stands in for a secret field's value wherever markup or an extraction would show it. */
export const HIDDEN_VALUE = '(hidden)';

const seenAsPassword = new WeakSet<Element>();

// By tag and property rather than `instanceof`: elements of another realm (a same-origin frame's
// document) fail `instanceof HTMLInputElement` here.
function isPasswordNow(element: Element): boolean {
  return element.localName === 'input' && (element as HTMLInputElement).type === 'password';
}

/** Notes a field that is a password field right now, so a later toggle does not unmask it. */
export function rememberPasswordField(element: Element): void {
  if (isPasswordNow(element)) seenAsPassword.add(element);
}

export function isSecretField(element: Element): boolean {
  if (isPasswordNow(element)) {
    seenAsPassword.add(element);
    return true;
  }
  if (seenAsPassword.has(element)) return true;
  const tokens = (element.getAttribute('autocomplete') ?? '').toLowerCase().split(/\s+/);
  return tokens.some((token) => SECRET_AUTOCOMPLETE_TOKENS.includes(token));
}

/**
 * Remembers every password field of `document` now, and any field whose `type` attribute leaves
 * `password` from now on, so a toggle between two snapshots is caught as well. (Fields in shadow
 * trees are out of the observer's sight; the snapshot walker remembers those it passes.)
 */
const watched = new WeakSet<Document>();

export function watchPasswordToggles(document: Document): MutationObserver | undefined {
  const View = document.defaultView?.MutationObserver;
  if (!View || watched.has(document)) return undefined;
  watched.add(document);
  for (const input of document.querySelectorAll('input[type="password" i]')) seenAsPassword.add(input);
  const observer = new View((records) => {
    for (const record of records) {
      if (record.oldValue?.trim().toLowerCase() === 'password') seenAsPassword.add(record.target as Element);
      else rememberPasswordField(record.target as Element);
    }
  });
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['type'], attributeOldValue: true });
  return observer;
}

/** Starts watching `document` for password fields and their toggles, once per document. */
export function watchPasswordFields(document: Document): void {
  watchPasswordToggles(document);
}
