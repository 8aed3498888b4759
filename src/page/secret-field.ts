/**
 * Which form fields hold a secret: a password field, a field whose autocomplete token names a
 * password, a one-time code or a card secret, and a field that was a password field before a
 * "show password" toggle turned it into plain text. Their values are never read out.
 */

/** Autocomplete tokens of secret fields; connectors' in-page extraction receives the same list. */
export const SECRET_AUTOCOMPLETE_TOKENS: readonly string[] = [
  'current-password',
  'new-password',
  'one-time-code',
  'cc-number',
  'cc-csc',
];

/** What stands in for a secret field's value wherever markup or an extraction would show it. */
export const HIDDEN_VALUE = '(hidden)';

const formerPasswords = new WeakSet<Element>();
const watched = new WeakSet<Document>();

export function isSecretField(el: Element): boolean {
  if (el.localName !== 'input') return false;
  if ((el as HTMLInputElement).type === 'password') {
    formerPasswords.add(el);
    return true;
  }
  if (formerPasswords.has(el)) return true;
  const tokens = (el.getAttribute('autocomplete') ?? '').toLowerCase().split(/\s+/);
  return tokens.some((token) => SECRET_AUTOCOMPLETE_TOKENS.includes(token));
}

/**
 * Remembers every field that stops being a password field in `document` from now on, so a
 * "show password" toggle does not make its value readable. Once per document.
 */
export function watchPasswordFields(document: Document): void {
  if (watched.has(document) || typeof MutationObserver === 'undefined') return;
  watched.add(document);
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.oldValue?.trim().toLowerCase() === 'password') formerPasswords.add(record.target as Element);
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['type'], attributeOldValue: true });
}
