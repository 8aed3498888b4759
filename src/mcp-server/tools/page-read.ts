/** Helpers the reading tools share: labels for page text. */
export { originOf } from '../gates/origin';

/** A visible cut for capped page text, saying how to see the rest. */
export function cutNote(shown: number, total: number, maxChars: number): string {
  return (
    `\n# … cut: showing ${shown} of ${total} characters (budget ${maxChars}). ` +
    'Pass a `selector` for one part of the page, or a larger `maxChars` (0 for no budget).'
  );
}
