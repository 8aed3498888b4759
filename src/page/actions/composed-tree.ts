/** Walking the flat tree from an element outwards, and where an element is drawn. */

/** Parent in the flat tree: through shadow roots to their hosts and from slotted nodes to slots. */
export function composedParent(node: Node): Node | null {
  if (node instanceof Element && node.assignedSlot) return node.assignedSlot;
  if (node.parentNode instanceof ShadowRoot) return node.parentNode.host;
  return node.parentNode;
}

export function composedContains(ancestor: Node, node: Node | null): boolean {
  for (let current = node; current; current = composedParent(current)) if (current === ancestor) return true;
  return false;
}

/** The first visible box of the element: a link that wraps lines is clicked on its first line. */
export function firstBox(element: Element): DOMRect | undefined {
  for (const rect of element.getClientRects()) if (rect.width > 0 && rect.height > 0) return rect;
  return undefined;
}
