/**
 * The one way text someone else wrote — a page, a page's tool, another agent — is put in front of
 * a model: inside an element whose name says whose words they are, `<untrusted origin="…">` for
 * pages and `<message from="…">` for agents relayed in the room. The content must not be able to
 * close its wrapper early or open a forged one, so before wrapping:
 *
 * - every invisible character goes (`<\u200b/untrusted>` reads as a closing tag to a model);
 * - any opening of a tag whose name reads as one of the product's wrapper names is defused: the
 *   `<` becomes `‹`. "Reads as" is generous on purpose: any case, spaces, slashes and combining
 *   marks between the parts, fullwidth and mathematical letters (NFKC), and the Cyrillic and
 *   Greek letters that look like Latin ones. Every wrapper name is defused in every wrapper, so a
 *   page cannot forge an agent's message, nor an agent a page.
 */
import { stripInvisible } from './invisible';

export const WRAPPER_NAMES = ['untrusted', 'message'] as const;
export type WrapperName = (typeof WRAPPER_NAMES)[number];

/** What stands in for a defused `<`: readable, and no tag opener. */
const DEFUSED = '\u2039';

/** `<` and the characters that draw like it. */
const OPENERS = /[<\uff1c\ufe64\u02c2\u1438\u2329\u3008\u27e8]/g;
/** Between `<`, `/` and the name: spaces, slashes of every drawing, combining marks. */
const FILLER = /^[\s/\uff0f\u2215\u2044\u29f8\p{M}]*/u;
/** How far past an opener a name is looked for. */
const LOOKAHEAD = 48;

/** Letters that draw like the Latin letters of the wrapper names (Cyrillic, Greek, Armenian, small caps). */
const LOOK_ALIKES: Record<string, string> = {
  а: 'a',
  ɑ: 'a',
  α: 'a',
  е: 'e',
  ε: 'e',
  ҽ: 'e',
  ɡ: 'g',
  ց: 'g',
  һ: 'h',
  і: 'i',
  ı: 'i',
  ι: 'i',
  ј: 'j',
  м: 'm',
  ᴍ: 'm',
  п: 'n',
  ո: 'n',
  η: 'n',
  ɴ: 'n',
  о: 'o',
  ο: 'o',
  օ: 'o',
  р: 'p',
  ρ: 'p',
  г: 'r',
  ʀ: 'r',
  ѕ: 's',
  ꜱ: 's',
  т: 't',
  τ: 't',
  ᴛ: 't',
  ս: 'u',
  υ: 'u',
  ᴜ: 'u',
  μ: 'u',
  ԁ: 'd',
  ᴅ: 'd',
  х: 'x',
  у: 'y',
};

/** The letters after an opener as a model would read them: compatibility forms folded, marks and fillers dropped. */
function skeleton(text: string): string {
  let out = '';
  for (const char of text.normalize('NFKC').toLowerCase()) {
    if (/[\s/\p{M}]/u.test(char)) continue;
    out += LOOK_ALIKES[char] ?? char;
  }
  return out;
}

function opensWrapper(after: string): boolean {
  const rest = after.slice(after.match(FILLER)![0].length);
  const read = skeleton(rest);
  return WRAPPER_NAMES.some((name) => read.startsWith(name));
}

/**
 * Untrusted text made safe to place inside any wrapper: invisible characters gone, every opening
 * of a wrapper-looking tag defused. Everything else is kept as it was.
 */
export function defuseWrappers(text: string): string {
  const plain = stripInvisible(text);
  return plain.replace(OPENERS, (opener, index: number) =>
    opensWrapper(plain.slice(index + 1, index + 1 + LOOKAHEAD)) ? DEFUSED : opener,
  );
}

function attribute(value: string): string {
  return stripInvisible(value).replace(/[&"<>\r\n]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `<name a="…">\n…\n</name>`, the body defused, attribute values escaped. */
export function wrapText(name: WrapperName, attributes: Record<string, string>, body: string): string {
  const attrs = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${attribute(value)}"`)
    .join('');
  return `<${name}${attrs}>\n${defuseWrappers(body)}\n</${name}>`;
}

/** A page's words, labelled with the origin they came from. */
export function wrapUntrusted(origin: string, text: string): string {
  return wrapText('untrusted', { origin }, text);
}
