/**
 * Page text reaches the model inside a wrapper so the model can tell what the page said from what
 * the tool says. The page must not be able to close the wrapper early or open a fake one, so any
 * look-alike of the delimiter inside the content is defused. The tag is short because it wraps
 * nearly every answer; any tag that starts with it (the longer `untrusted-page-content` of
 * earlier versions included) is defused too.
 */

const TAG = 'untrusted';
const DELIMITER_LOOKALIKE = /<(\s*\/?\s*)(untrusted)/gi;

export function neutraliseDelimiters(text: string): string {
  // U+2039 keeps the text readable while no longer being a tag opener.
  return text.replace(DELIMITER_LOOKALIKE, '\u2039$1$2');
}

function attribute(value: string): string {
  return value.replace(/[&"<>\r\n]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function wrapUntrusted(origin: string, text: string): string {
  return `<${TAG} origin="${attribute(origin)}">\n${neutraliseDelimiters(text)}\n</${TAG}>`;
}
