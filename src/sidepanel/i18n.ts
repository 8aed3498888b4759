/**
 * UI strings come from `_locales/<lang>/messages.json` through `chrome.i18n`, so a translation is a
 * file. Outside the extension (unit tests) the English file is the fallback.
 */
import english from '../../public/_locales/en/messages.json' with { type: 'json' };

type MessageKey = keyof typeof english;

export function t(key: MessageKey, ...substitutions: string[]): string {
  const fromChrome = globalThis.chrome?.i18n?.getMessage(key, substitutions);
  if (fromChrome) return fromChrome;
  let text: string = english[key]?.message ?? key;
  substitutions.forEach((value, index) => (text = text.replace(`$${index + 1}`, value)));
  return text;
}

/** Fills `data-i18n` elements of static HTML. */
export function localise(root: ParentNode): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-i18n]')) {
    element.textContent = t(element.dataset.i18n as MessageKey);
  }
}
