/**
 * The last gate between an agent's markdown and the DOM. markdown-it runs with `html: false`, so
 * raw HTML arrives escaped; DOMPurify still checks every tag and attribute against a list of
 * exactly what the markdown renderer emits, and a hook decides what each link may do.
 */
import DOMPurify, { type DOMPurify as Purifier } from 'dompurify';

/** Only what markdown-it and highlight.js produce for the enabled rules. */
const ALLOWED_TAGS = [
  'p',
  'br',
  'hr',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'ul',
  'ol',
  'li',
  'pre',
  'code',
  'span',
  'em',
  'strong',
  's',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
];
const ALLOWED_ATTR = ['href', 'title', 'class', 'start'];
/** Classes the renderer and highlighter set; anything else an attacker could aim at our own CSS. */
const ALLOWED_CLASS = /^(?:hljs(?:-[\w-]+)?|[\w-]+_|language-[\w.+#-]{1,40}|align-(?:left|center|right)|image-link)$/;
const HIGHLIGHT_CLASSES = /^hljs-[\w-]+(?: [\w-]+_)*$/;
const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** The URL a link may open, or undefined: only absolute http(s) and mailto. */
export function openableHref(href: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  return LINK_PROTOCOLS.has(url.protocol) ? url : undefined;
}

/** The classes of a `class` value that markup in the panel may carry, or an empty string. */
export function allowedClasses(value: string): string {
  // Nearly every class is a highlighter token: check those without splitting.
  if (HIGHLIGHT_CLASSES.test(value)) return value;
  return value
    .split(/\s+/)
    .filter((name) => ALLOWED_CLASS.test(name))
    .join(' ');
}

let purifier: Purifier | undefined;

function instance(): Purifier {
  if (purifier) return purifier;
  const created = DOMPurify(window);
  // Parsed once here rather than on every call: a streamed reply is sanitized once per frame.
  created.setConfig({
    ALLOWED_TAGS,
    ALLOWED_ATTR,
    ALLOWED_URI_REGEXP: /^(?:https?|mailto):/i,
    ALLOW_DATA_ATTR: false,
    ALLOW_ARIA_ATTR: false,
    RETURN_DOM_FRAGMENT: true,
  });
  created.addHook('uponSanitizeAttribute', (_node, data) => {
    if (data.attrName !== 'class') return;
    data.attrValue = allowedClasses(data.attrValue);
    if (!data.attrValue) data.keepAttr = false;
  });
  created.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName !== 'A') return;
    const anchor = node as HTMLAnchorElement;
    const url = openableHref(anchor.getAttribute('href') ?? '');
    if (!url) {
      // Kept as inert text: the reader still sees what the agent wrote, nothing can be followed.
      anchor.removeAttribute('href');
      anchor.classList.add('refused-link');
      return;
    }
    anchor.setAttribute('href', url.href);
    anchor.setAttribute('target', '_blank');
    anchor.setAttribute('rel', 'noopener noreferrer');
    // The real destination, punycode and all, so link text cannot disguise where it goes.
    anchor.setAttribute('title', url.protocol === 'mailto:' ? url.href : url.href.slice(0, 300));
  });
  purifier = created;
  return created;
}

/**
 * Sanitized DOM for renderer output, ready to insert. DOMPurify parses the markup in a document of
 * its own (nothing loads, nothing runs there) and hands back a fragment of this document.
 */
export function sanitizeToFragment(html: string): DocumentFragment {
  return instance().sanitize(html) as unknown as DocumentFragment;
}
