/**
 * A web address as a person should read it before going there. Hosts are shown in their ASCII
 * form (`xn--ggle-55da.com`), which cannot imitate another site; the Unicode form of an
 * internationalised host is offered only beside it and marked, with a warning when it mixes
 * scripts (Latin with Cyrillic, say), the way Chrome's address bar falls back to punycode.
 */
import { toUnicode } from 'punycode/';
import { showInvisible } from './invisible';

export interface ShownAddress {
  /** The whole address with the ASCII host, exactly where a tab would go. */
  href: string;
  /** The ASCII host. */
  host: string;
  /** The host's Unicode form, when it differs from the ASCII one. */
  unicodeHost?: string;
  /** The Unicode form mixes scripts within one label: likely an imitation. */
  mixedScripts?: boolean;
}

const SCRIPTS = [
  /\p{Script=Latin}/u,
  /\p{Script=Cyrillic}/u,
  /\p{Script=Greek}/u,
  /\p{Script=Armenian}/u,
  /\p{Script=Georgian}/u,
  /\p{Script=Cherokee}/u,
  /\p{Script=Arabic}/u,
  /\p{Script=Hebrew}/u,
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u,
  /\p{Script=Thai}/u,
  /\p{Script=Devanagari}/u,
];

function mixesScripts(label: string): boolean {
  return SCRIPTS.filter((script) => script.test(label)).length > 1;
}

/** The address to show, or undefined when it is not an absolute URL. */
export function showAddress(text: string): ShownAddress | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  // The URL parser already turns an internationalised host into its ASCII form.
  const host = url.host;
  const shown: ShownAddress = { href: showInvisible(url.href), host };
  if (!/(^|\.)xn--/i.test(url.hostname)) return shown;
  let unicode: string;
  try {
    unicode = toUnicode(url.hostname);
  } catch {
    return shown;
  }
  shown.unicodeHost = showInvisible(unicode) + (url.port ? `:${url.port}` : '');
  if (unicode.split('.').some(mixesScripts)) shown.mixedScripts = true;
  return shown;
}
