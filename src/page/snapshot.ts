/**
 * Walks the DOM once and writes the accessibility snapshot: one line per meaningful element, with
 * roles and names from dom-accessibility-api and refs on interactive elements.
 */
import { computeAccessibleName, getRole } from 'dom-accessibility-api';
import type { RefRegistry } from './refs';

const INTERACTIVE_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'searchbox',
  'checkbox',
  'radio',
  'combobox',
  'listbox',
  'option',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'tab',
  'switch',
  'slider',
  'spinbutton',
  'treeitem',
]);
const SILENT_ROLES = new Set(['generic', 'none', 'presentation', 'paragraph']);

/** Page text must not be able to start a new line or fake a ref. */
export function neutraliseName(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[[\]]/g, (c) => (c === '[' ? '\u27e6' : '\u27e7'))
    .replace(/"/g, '\u201d');
}

function isHidden(element: Element, style: CSSStyleDeclaration): boolean {
  if (element.getAttribute('aria-hidden') === 'true') return true;
  if ((element as HTMLElement).hidden) return true;
  return style.display === 'none' || style.visibility === 'hidden';
}

function states(element: Element): string {
  const out: string[] = [];
  if (element instanceof HTMLInputElement) {
    if (element.type === 'checkbox' || element.type === 'radio') {
      if (element.checked) out.push('[checked]');
    } else if (element.type !== 'password' && element.value) {
      out.push(`[value="${neutraliseName(element.value)}"]`);
    }
  }
  if (element instanceof HTMLTextAreaElement && element.value) {
    out.push(`[value="${neutraliseName(element.value)}"]`);
  }
  if ((element as HTMLButtonElement).disabled) out.push('[disabled]');
  return out.join(' ');
}

export function snapshotLines(root: Element, refs: RefRegistry): string[] {
  const lines: string[] = [];
  const visit = (node: Node, depth: number): void => {
    if (node.nodeType === Node.TEXT_NODE) {
      const text = neutraliseName(node.textContent ?? '');
      if (text) lines.push(`${'  '.repeat(depth)}- text "${text}"`);
      return;
    }
    if (!(node instanceof Element)) return;
    const style = getComputedStyle(node);
    if (isHidden(node, style)) return;
    if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE'].includes(node.tagName)) return;
    const role = getRole(node) ?? '';
    if (!role || SILENT_ROLES.has(role)) {
      for (const child of node.childNodes) visit(child, depth);
      return;
    }
    const name = neutraliseName(computeAccessibleName(node));
    const interactive = INTERACTIVE_ROLES.has(role);
    let line = `${'  '.repeat(depth)}- ${role}`;
    if (name) line += ` "${name}"`;
    if (interactive) line += ` [ref=${refs.refFor(node)}]`;
    const extra = states(node);
    if (extra) line += ` ${extra}`;
    lines.push(line);
    if (interactive && name) return;
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE && name) continue;
      visit(child, depth + 1);
    }
  };
  visit(root, 0);
  return lines;
}
