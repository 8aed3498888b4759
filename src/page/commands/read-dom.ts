import type { z } from 'zod';
import type { PageEnv } from '../env';
import type { ReadDomCommand } from '../protocol';

const PASSWORD_VALUE = /(<input\b(?=[^>]*\btype\s*=\s*["']?password)[^>]*?\bvalue\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)/gi;
const SCRIPT_BODY = /(<script\b[^>]*>)[\s\S]*?(<\/script>)/gi;

/** Open shadow roots below `root`, so their content is serialised in place. */
function openShadowRoots(root: Element): ShadowRoot[] {
  const found: ShadowRoot[] = [];
  const walk = (element: Element) => {
    if (element.shadowRoot) {
      found.push(element.shadowRoot);
      for (const child of element.shadowRoot.children) walk(child);
    }
    for (const child of element.children) walk(child);
  };
  walk(root);
  return found;
}

function serialise(root: Element): string {
  // getHTML (Chrome 125+) can serialise open shadow roots in place; older browsers get outerHTML.
  const canSerialiseShadows = typeof (root as { getHTML?: unknown }).getHTML === 'function';
  const shadows = canSerialiseShadows ? openShadowRoots(root) : [];
  if (shadows.length === 0) return root.outerHTML;
  const shell = (root.cloneNode(false) as Element).outerHTML;
  const close = shell.lastIndexOf('</');
  const inner = root.getHTML({ shadowRoots: shadows });
  return close < 0 ? shell : shell.slice(0, close) + inner + shell.slice(close);
}

export function runReadDom(command: z.output<typeof ReadDomCommand>, env: PageEnv) {
  const html = serialise(env.queryRoot(command.selector))
    // Scripts are code, not content; a password written into the markup is still a password.
    .replace(SCRIPT_BODY, '$1…$2')
    .replace(PASSWORD_VALUE, '$1"(hidden)"');
  return {
    url: env.document.URL,
    html: command.maxChars ? html.slice(0, command.maxChars) : html,
    total: html.length,
  };
}
