/**
 * ARIA attributes that name other elements by id (`aria-labelledby`, `aria-controls`, `aria-owns`)
 * hold a space-separated list; read here once.
 */

/** The ids an attribute of `element` lists, in order; none when it is absent or blank. */
export function idRefs(element: Element, attribute: string): string[] {
  return (element.getAttribute(attribute) ?? '').split(/\s+/).filter(Boolean);
}
