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

export function styleSheetsCanAddText(document: Document): boolean {
  for (const sheet of document.styleSheets) if (sheetCanAddText(sheet)) return true;
  for (const sheet of document.adoptedStyleSheets ?? []) if (sheetCanAddText(sheet)) return true;
  return false;
}
