import type { z } from 'zod';
import type { PageEnv } from '../env';
import type { ReadDomCommand } from '../protocol';
import { HIDDEN_VALUE, isSecretField } from '../secret-field';

/** Scripts are code, not content. */
const SCRIPT_PLACEHOLDER = '…';

/**
 * What the copy must not show: a secret field's value, in its attribute or in its current value
 * (a copied input carries the value the user typed, and a copied file input would not).
 */
function redactCopy(original: Element, copy: Element): void {
  if (copy.localName === 'script') copy.textContent = SCRIPT_PLACEHOLDER;
  if (isSecretField(original)) {
    if (copy.hasAttribute('value')) copy.setAttribute('value', HIDDEN_VALUE);
    (copy as HTMLInputElement).value = copy.getAttribute('value') ?? '';
  }
}

/**
 * Redacts `copy` (a deep clone of `original`) and its descendants pairwise, and re-creates the
 * open shadow roots cloning leaves out, collecting them for the serialiser to write in place.
 */
function mirror(original: Element, copy: Element, shadows: ShadowRoot[]): void {
  redactCopy(original, copy);
  if (original.shadowRoot) {
    let shadow = copy.shadowRoot;
    if (!shadow) {
      try {
        shadow = copy.attachShadow({ mode: 'open' });
      } catch {
        // A host the copy cannot recreate: its shadow content is left out rather than shown unredacted.
      }
      for (const child of shadow ? original.shadowRoot.childNodes : []) {
        shadow!.append(copy.ownerDocument.importNode(child, true));
      }
    }
    if (shadow) {
      shadows.push(shadow);
      pairChildren(original.shadowRoot, shadow, shadows);
    }
  }
  pairChildren(original, copy, shadows);
}

function pairChildren(original: ParentNode, copy: ParentNode, shadows: ShadowRoot[]): void {
  const copies = copy.children;
  Array.from(original.children).forEach((child, i) => {
    if (copies[i]) mirror(child, copies[i], shadows);
  });
}

/**
 * The markup of `root`, taken from a copy in an inert document: the page is never changed, the
 * copy runs no script and loads nothing, and secrets are removed from the copy before it is
 * serialised rather than searched for in the text afterwards.
 */
function redactedMarkup(root: Element): string {
  const inert = root.ownerDocument.implementation.createHTMLDocument('');
  const copy = inert.importNode(root, true);
  const shadows: ShadowRoot[] = [];
  mirror(root, copy, shadows);
  // getHTML (Chrome 125+) can serialise open shadow roots in place; older browsers get outerHTML.
  if (shadows.length === 0 || typeof (copy as { getHTML?: unknown }).getHTML !== 'function') return copy.outerHTML;
  const shell = (copy.cloneNode(false) as Element).outerHTML;
  const close = shell.lastIndexOf('</');
  const inner = copy.getHTML({ shadowRoots: shadows });
  return close < 0 ? shell : shell.slice(0, close) + inner + shell.slice(close);
}

export function runReadDom(command: z.output<typeof ReadDomCommand>, env: PageEnv) {
  const html = redactedMarkup(env.queryRoot(command.selector));
  return {
    url: env.document.URL,
    html: command.maxChars ? html.slice(0, command.maxChars) : html,
    total: html.length,
  };
}
