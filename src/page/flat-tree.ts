/**
 * The flat tree as it renders: an element with an open shadow root shows its shadow children; a
 * slot shows what is assigned to it (or its fallback content). Both walkers go through here.
 */
/** Only these (and custom elements) can host a shadow root, so only they are asked for one. */
const SHADOW_HOSTS = new Set([
  'article',
  'aside',
  'blockquote',
  'body',
  'div',
  'footer',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'main',
  'nav',
  'p',
  'section',
  'span',
]);

export function flatChildren(node: Element): ArrayLike<Node> {
  const name = node.localName;
  if ((SHADOW_HOSTS.has(name) || name.includes('-')) && node.shadowRoot) return node.shadowRoot.childNodes;
  if (name === 'slot') {
    const assigned = (node as HTMLSlotElement).assignedNodes();
    if (assigned.length) return assigned;
  }
  return node.childNodes;
}

/** A closed `<details>` renders only its summary, whatever the styles of the rest say. */
export function closedDetailsSummary(node: Element): Element | undefined | null {
  if (node.localName !== 'details' || (node as HTMLDetailsElement).open) return null;
  for (const child of node.children) if (child.localName === 'summary') return child;
  return undefined;
}
