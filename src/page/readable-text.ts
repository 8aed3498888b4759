/**
 * The page's text as a reader sees it: hidden parts skipped, shadow content included, one line per
 * block. Used by get_text and by wait_for's text condition.
 */
import { closedDetailsSummary, flatChildren } from './flat-tree';

const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'head', 'title', 'select', 'option']);

export function readableText(root: Element): string {
  const view = root.ownerDocument.defaultView ?? window;
  const lines: string[] = [];
  let line = '';
  const flush = () => {
    const text = line.replace(/[^\S\n]+/g, ' ').trim();
    if (text) lines.push(text);
    line = '';
  };
  const visit = (node: Node, shown: boolean): void => {
    if (node.nodeType === 3) {
      if (shown) line += (node as Text).data.replace(/\n/g, ' ');
      return;
    }
    if (node.nodeType !== 1) return;
    const element = node as Element;
    if (SKIPPED.has(element.localName)) return;
    const style = view.getComputedStyle(element);
    if (style.display === 'none') return;
    const visible = style.visibility === 'visible';
    if (element.localName === 'br') {
      flush();
      return;
    }
    const block = style.display !== 'inline' && style.display !== 'contents';
    if (block && !style.display.startsWith('inline')) flush();
    else if (block) line += ' ';
    const summary = closedDetailsSummary(element);
    if (summary !== null) {
      if (summary) visit(summary, visible);
    } else {
      const children = flatChildren(element);
      for (let i = 0; i < children.length; i++) visit(children[i]!, visible);
    }
    if (block && !style.display.startsWith('inline')) flush();
    else if (block) line += ' ';
  };
  visit(root, true);
  flush();
  return lines.join('\n');
}
