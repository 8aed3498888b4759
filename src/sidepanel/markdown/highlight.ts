/**
 * Syntax highlighting for fenced code: highlight.js's core with the languages agents write most,
 * registered one by one so the panel does not ship all 190 grammars. No auto-detection: guessing a
 * language costs a full pass per registered grammar on every render, and a wrong guess is worse
 * than plain text.
 */
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import csharp from 'highlight.js/lib/languages/csharp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import kotlin from 'highlight.js/lib/languages/kotlin';
import markdown from 'highlight.js/lib/languages/markdown';
import php from 'highlight.js/lib/languages/php';
import plaintext from 'highlight.js/lib/languages/plaintext';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import swift from 'highlight.js/lib/languages/swift';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = {
  bash,
  c,
  cpp,
  csharp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  kotlin,
  markdown,
  php,
  plaintext,
  python,
  ruby,
  rust,
  shell,
  sql,
  swift,
  typescript,
  xml,
  yaml,
};
for (const [name, grammar] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, grammar);

/** The registered language an info string names (`ts`, `sh`, `html` … via highlight.js aliases). */
export function languageOf(info: string): string | undefined {
  const name = info.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? '';
  if (!name) return undefined;
  return hljs.getLanguage(name) ? name : undefined;
}

/** How highlight.js's own HTML renderer walks its token tree: text, and scopes opened and closed around it. */
export interface TokenRenderer {
  addText(text: string): void;
  openNode(node: { scope?: string }): void;
  closeNode(node: { scope?: string }): void;
}

export interface HighlightedCode {
  html: string;
  /**
   * Walks the tokens behind `html`, where highlight.js exposes its tree: a caller can build the
   * same elements from it directly instead of parsing the markup back.
   */
  walk?: (renderer: TokenRenderer) => void;
}

/** Highlighted HTML for `code` (and its token tree), or undefined when the language is not registered. */
export function highlightCode(code: string, info: string): HighlightedCode | undefined {
  const language = languageOf(info);
  if (!language) return undefined;
  try {
    const result = hljs.highlight(code, { language, ignoreIllegals: true });
    const tree = result._emitter as { walk?: (renderer: TokenRenderer) => unknown };
    const walk = typeof tree.walk === 'function' ? (renderer: TokenRenderer) => void tree.walk!(renderer) : undefined;
    return { html: result.value, walk };
  } catch {
    return undefined;
  }
}

/**
 * The classes highlight.js gives a scope in its markup: `hljs-keyword`; `hljs-title function_` for
 * the tiered `title.function`; `language-xml` around code of an embedded language.
 */
export function scopeClasses(scope: string): string {
  if (scope.startsWith('language:')) return `language-${scope.slice('language:'.length)}`;
  const [first, ...tiers] = scope.split('.');
  return [`hljs-${first}`, ...tiers.map((tier, index) => tier + '_'.repeat(index + 1))].join(' ');
}
