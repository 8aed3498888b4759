/**
 * The flat tree as it renders: an element with an open shadow root shows its shadow children; a
 * slot shows what is assigned to it (or its fallback content). Both walkers go through here, and
 * so does finding the element that holds a run of text they printed.
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

/** A node's parent as it renders: the slot it is assigned to, or the host above a shadow root. */
function flatParent(node: Node): Node | null {
  const slot = (node as Element | Text).assignedSlot;
  if (slot) return slot;
  const parent = node.parentNode;
  return parent && parent.nodeType === 11 && 'host' in parent ? (parent as ShadowRoot).host : parent;
}

/** The innermost element holding both nodes, and every node rendered between them. */
export function commonFlatAncestor(first: Node, last: Node): Element | undefined {
  const above = new Set<Node>();
  for (let node: Node | null = first; node; node = flatParent(node)) above.add(node);
  for (let node: Node | null = last; node; node = flatParent(node))
    if (node.nodeType === 1 && above.has(node)) return node as Element;
  return undefined;
}
