/**
 * The flat tree as it renders: an element with an open shadow root shows its shadow children; a
 * slot shows what is assigned to it (or its fallback content). Both walkers go through here.
 */
export function flatChildren(node: Element): ArrayLike<Node> {
  if (node.shadowRoot) return node.shadowRoot.childNodes;
  if (node.localName === 'slot') {
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
