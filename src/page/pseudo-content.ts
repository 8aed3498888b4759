/**
 * Text from CSS `content` on ::before/::after counts in accessible names, but reading pseudo-element
 * styles is one of the costliest parts of naming. When no style sheet of the document can put text
 * there, names are computed without asking. A sheet we cannot read (cross-origin) counts as "can".
 */

const PSEUDO = /::?(before|after|marker)/i;
const EMPTY_CONTENT = /^(none|normal|""|'')$/;

function rulesCanAddText(rules: CSSRuleList): boolean {
  for (const rule of rules) {
    const styleRule = rule as CSSStyleRule;
    if (typeof styleRule.selectorText === 'string' && PSEUDO.test(styleRule.selectorText)) {
      const content = styleRule.style.getPropertyValue('content').trim();
      if (content && !EMPTY_CONTENT.test(content)) return true;
    }
    const imported = (rule as CSSImportRule).styleSheet;
    if (imported && sheetCanAddText(imported)) return true;
    // @media, @supports, @layer and nested rules hold rules of their own.
    const nested = (rule as CSSGroupingRule).cssRules;
    if (nested?.length && rulesCanAddText(nested)) return true;
  }
  return false;
}

function sheetCanAddText(sheet: CSSStyleSheet): boolean {
  try {
    return rulesCanAddText(sheet.cssRules);
  } catch {
    return true;
  }
}

/** For a document or a shadow root: its own sheets, linked, inline and adopted. */
export function styleSheetsCanAddText(root: DocumentOrShadowRoot): boolean {
  // Sheets that cannot be listed count as "can" (jsdom lists none for shadow roots).
  if (!(root.styleSheets as StyleSheetList | undefined)) return true;
  for (const sheet of root.styleSheets) if (sheetCanAddText(sheet)) return true;
  for (const sheet of root.adoptedStyleSheets ?? []) if (sheetCanAddText(sheet)) return true;
  return false;
}

export function isShadowRoot(node: Node): node is ShadowRoot {
  return node.nodeType === 11 && 'host' in node;
}

/**
 * Whether CSS may add text inside a shadow tree: its own sheets, or those of a tree around it
 * (`::part()` rules reach in from outside), one answer per shadow root.
 */
export function shadowTreesCanAddText(): (root: ShadowRoot) => boolean {
  const known = new Map<ShadowRoot, boolean>();
  const canAddText = (root: ShadowRoot): boolean => {
    let answer = known.get(root);
    if (answer === undefined) {
      const outer = root.host.getRootNode();
      answer = styleSheetsCanAddText(root) || (isShadowRoot(outer) && canAddText(outer));
      known.set(root, answer);
    }
    return answer;
  };
  return canAddText;
}
