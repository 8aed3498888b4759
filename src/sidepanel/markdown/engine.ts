/**
 * markdown-it configured for agent replies: no raw HTML, bare URLs linked, single newlines kept
 * as line breaks (the way chat text is written). Its output always passes through DOMPurify and
 * then gains the panel's own chrome (copy buttons, scrollable tables); code is highlighted later,
 * once it comes near the view (lazy-highlight.ts).
 */
import MarkdownIt from 'markdown-it';
import type { Env, Token } from 'markdown-it';
import { t } from '../i18n';
import { lazyHighlighter } from './lazy-highlight';
import { sanitizeToFragment } from './sanitize';

/** What markdown-it collects while parsing (link reference definitions). */
export type MarkdownEnv = Env;

export const md = new MarkdownIt({
  html: false,
  linkify: true,
  breaks: true,
  typographer: false,
});

// Table alignment arrives as a style attribute; a class keeps style attributes out of the DOM.
md.core.ruler.push('tabwright_align_classes', (state) => {
  for (const token of state.tokens) {
    if (token.type !== 'th_open' && token.type !== 'td_open') continue;
    const style = token.attrGet('style');
    if (!style) continue;
    token.attrs = (token.attrs ?? []).filter(([name]) => name !== 'style');
    const align = /text-align:(left|center|right)/.exec(String(style))?.[1];
    if (align) token.attrJoin('class', `align-${align}`);
  }
});

// Images become links: loading a remote image from an agent's reply would tell that server what the
// agent wrote (page data included), without a click.
md.renderer.rules.image = (tokens, index, options, env, self) => {
  const token = tokens[index]!;
  const src = String(token.attrGet('src') ?? '');
  const alt = self.renderInlineAsText(token.children ?? [], options, env) || src;
  const label = md.utils.escapeHtml(t('imageLink', alt));
  return `<a class="image-link" href="${md.utils.escapeHtml(src)}">${label}</a>`;
};

/** Renders parsed block tokens to sanitized, decorated DOM. */
export function renderTokens(tokens: Token[], env: MarkdownEnv): DocumentFragment {
  const fragment = sanitizeToFragment(md.renderer.render(tokens, md.options, env));
  decorate(fragment);
  return fragment;
}

/**
 * Renders consecutive top-level blocks (token ranges) with one sanitizer pass, and returns each
 * block's nodes. Every top-level block renders to exactly one element; should that ever not hold,
 * the blocks are rendered one by one instead.
 */
export function renderBlocks(tokens: Token[], ranges: ReadonlyArray<readonly [number, number]>, env: MarkdownEnv) {
  if (ranges.length === 0) return [];
  const from = ranges[0]![0];
  const to = ranges.at(-1)![1];
  const nodes = [...renderTokens(tokens.slice(from, to), env).childNodes];
  if (nodes.length === ranges.length) return nodes.map((node) => [node]);
  return ranges.map(([start, end]) => [...renderTokens(tokens.slice(start, end), env).childNodes]);
}

/** Renders a whole markdown text at once (restored history, small texts). */
export function renderMarkdown(text: string): DocumentFragment {
  const env: MarkdownEnv = {};
  return renderTokens(md.parse(text, env), env);
}

/** A code block as the panel shows it: language label, copy button, then the code. */
export function codeBlock(info: string, pre: HTMLPreElement): HTMLElement {
  const language = info.trim().split(/\s+/, 1)[0] ?? '';
  const wrapper = document.createElement('div');
  wrapper.className = 'code-block';
  const head = document.createElement('div');
  head.className = 'code-head';
  const label = document.createElement('span');
  label.className = 'code-lang';
  label.textContent = language;
  const copy = document.createElement('button');
  copy.type = 'button';
  copy.className = 'copy-code';
  copy.textContent = t('copy');
  copy.setAttribute('aria-label', language ? t('copyCodeIn', language) : t('copyCode'));
  head.append(label, copy);
  wrapper.append(head, pre);
  return wrapper;
}

/** A code block whose text is still streaming: plain text, highlighted once the fence closes. */
export function plainCodeBlock(info: string, text: string): { block: HTMLElement; code: HTMLElement } {
  const pre = document.createElement('pre');
  const code = document.createElement('code');
  code.textContent = text;
  pre.append(code);
  return { block: codeBlock(info, pre), code };
}

function decorate(fragment: DocumentFragment): void {
  for (const node of [...fragment.childNodes]) {
    if (node.nodeType === Node.TEXT_NODE && !node.textContent?.trim()) node.remove();
  }
  for (const pre of fragment.querySelectorAll('pre')) {
    const code = pre.querySelector('code');
    const language = /(?:^|\s)language-(\S+)/.exec(code?.className ?? '')?.[1] ?? '';
    const placeholder = document.createComment('');
    pre.replaceWith(placeholder);
    const block = codeBlock(language, pre);
    placeholder.replaceWith(block);
    if (code) lazyHighlighter().watch(block, code);
  }
  for (const table of fragment.querySelectorAll('table')) {
    const wrap = document.createElement('div');
    wrap.className = 'table-wrap';
    wrap.tabIndex = 0;
    wrap.setAttribute('role', 'region');
    wrap.setAttribute('aria-label', t('table'));
    table.replaceWith(wrap);
    wrap.append(table);
  }
}
