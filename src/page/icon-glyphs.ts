/**
 * Icon fonts draw their pictures with characters from Unicode's Private Use Areas, put in by CSS
 * `content` or written into the markup. Such a character means nothing as text: Chromium leaves
 * it out of accessible names, and a person sees a picture, not a letter. A name made only of them
 * falls back to what the accessible name computation takes when there is no content: the title.
 */

const PRIVATE_USE = /[\u{E000}-\u{F8FF}\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}]/u;
const PRIVATE_USE_ALL = new RegExp(PRIVATE_USE.source, 'gu');

/** `text` without icon-font glyphs, its white space flattened as names are when glyphs were dropped. */
export function withoutIconGlyphs(text: string): string {
  if (!PRIVATE_USE.test(text)) return text;
  return text.replace(PRIVATE_USE_ALL, ' ').replace(/\s\s+/g, ' ').trim();
}

/** An accessible name without icon-font glyphs; one that was only glyphs becomes the element's title. */
export function nameWithoutIconGlyphs(name: string, element: Element): string {
  const stripped = withoutIconGlyphs(name);
  if (stripped || stripped === name) return stripped;
  return (element.getAttribute('title') ?? '').replace(/\s+/g, ' ').trim();
}
