/**
 * UI strings come from `_locales/<lang>/messages.json` through `chrome.i18n`, so a translation is a
 * file. Outside the extension (unit tests) the English file is the fallback.
 */
import english from '../../public/_locales/en/messages.json' with { type: 'json' };

export type MessageKey = keyof typeof english;

/**
 * Stand-ins for `$1`…`$9`, filled in here so each message is looked up once. Private-use
 * characters: `chrome.i18n` drops control characters from substitutions.
 */
const MARKERS = Array.from({ length: 9 }, (_, index) => `\uE000${index + 1}\uE000`);
// `chrome.i18n.getMessage` is a call into the extension bindings: too slow for every code block
// of a streamed reply, so each message's template is fetched once.
const templates = new Map<string, string>();

function template(key: MessageKey): string {
  let text = templates.get(key);
  if (text === undefined) {
    text = globalThis.chrome?.i18n?.getMessage(key, MARKERS) ?? '';
    if (!text) {
      text = english[key]?.message ?? key;
      MARKERS.forEach((marker, index) => (text = text!.replaceAll(`$${index + 1}`, marker)));
    }
    templates.set(key, text);
  }
  return text;
}

export function t(key: MessageKey, ...substitutions: string[]): string {
  let text = template(key);
  if (!text.includes('\uE000')) return text;
  MARKERS.forEach((marker, index) => (text = text.split(marker).join(substitutions[index] ?? '')));
  return text;
}

/**
 * Fills `data-i18n` elements of static HTML. On a whole document it also sets `lang` from the
 * messages file Chrome chose rather than from the UI language, so a UI language without a
 * translation is marked as the English it falls back to.
 */
export function localise(root: ParentNode): void {
  for (const element of root.querySelectorAll<HTMLElement>('[data-i18n]')) {
    element.textContent = t(element.dataset.i18n as MessageKey);
  }
  if ('documentElement' in root) (root as Document).documentElement.lang = t('languageTag');
}
