/**
 * Synthetic pointer events cannot make the browser match `:hover`, so menus drawn by CSS alone
 * would never open. The page's own `:hover` rules are mirrored with an attribute in their place,
 * and the hovered element and its ancestors carry that attribute while the pointer is on them.
 * Style sheets from other origins cannot be read and are left out; so are shadow roots' sheets.
 */

export const HOVER_ATTRIBUTE = 'data-tabwright-hover';
const HOVER = /:hover\b/g;

interface Mirror {
  fingerprint: string;
  sheet: CSSStyleSheet | undefined;
  styleElement: HTMLStyleElement | undefined;
  hasRules: boolean;
}

const mirrors = new WeakMap<Document, Mirror>();
const marked = new WeakMap<Document, Element[]>();

function readRules(sheet: CSSStyleSheet): CSSRuleList | undefined {
  try {
    return sheet.cssRules;
  } catch {
    return undefined; // another origin's sheet
  }
}

function fingerprintOf(document: Document): string {
  const parts: string[] = [];
  for (const sheet of document.styleSheets) parts.push(String(readRules(sheet)?.length ?? -1));
  return parts.join(',');
}

/** The rules under `rules` that mention `:hover`, rewritten to match the attribute instead. */
function mirroredRules(rules: CSSRuleList): string[] {
  const out: string[] = [];
  for (const rule of rules) {
    if (!rule.cssText.includes(':hover')) continue;
    const nested = (rule as CSSRule & { cssRules?: CSSRuleList }).cssRules;
    if (rule instanceof CSSStyleRule && !nested?.length) {
      out.push(`${rule.selectorText.replace(HOVER, `[${HOVER_ATTRIBUTE}]`)} { ${rule.style.cssText} }`);
    } else if (rule instanceof CSSStyleRule) {
      out.push(rule.cssText.replace(HOVER, `[${HOVER_ATTRIBUTE}]`));
    } else if (nested) {
      // @media, @supports, @container, @layer: keep the condition, mirror only the hover rules inside.
      const inner = mirroredRules(nested);
      const head = rule.cssText.slice(0, rule.cssText.indexOf('{')).trim();
      if (inner.length && head) out.push(`${head} { ${inner.join('\n')} }`);
    }
  }
  return out;
}

function install(document: Document, text: string, previous: Mirror | undefined): Mirror {
  const fingerprint = fingerprintOf(document);
  const hasRules = text.length > 0;
  try {
    const sheet = previous?.sheet ?? new CSSStyleSheet();
    sheet.replaceSync(text);
    if (!document.adoptedStyleSheets.includes(sheet))
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
    return { fingerprint, sheet, styleElement: undefined, hasRules };
  } catch {
    const element = previous?.styleElement ?? document.createElement('style');
    element.textContent = text;
    if (!element.isConnected) (document.head ?? document.documentElement).append(element);
    return { fingerprint, sheet: undefined, styleElement: element, hasRules };
  }
}

function ensureMirror(document: Document): Mirror {
  const current = mirrors.get(document);
  const fingerprint = fingerprintOf(document);
  if (current && current.fingerprint === fingerprint) {
    // The page may have replaced adoptedStyleSheets since.
    if (current.sheet && !document.adoptedStyleSheets.includes(current.sheet)) {
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, current.sheet];
    }
    return current;
  }
  const rules: string[] = [];
  for (const sheet of document.styleSheets) {
    const list = readRules(sheet);
    if (list) rules.push(...mirroredRules(list));
  }
  const mirror = install(document, rules.join('\n'), current);
  mirrors.set(document, mirror);
  return mirror;
}

/** Marks `chain` (the hovered element and its ancestors) as hovered; unmarks the previous chain. */
export function emulateHover(document: Document, chain: readonly Element[]): void {
  for (const element of marked.get(document) ?? []) element.removeAttribute(HOVER_ATTRIBUTE);
  marked.delete(document);
  if (!chain.length || !ensureMirror(document).hasRules) return;
  for (const element of chain) element.setAttribute(HOVER_ATTRIBUTE, '');
  marked.set(document, [...chain]);
}
