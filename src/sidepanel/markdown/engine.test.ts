// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from './engine';
import { openableHref } from './sanitize';

function html(markdown: string): HTMLElement {
  const root = document.createElement('div');
  root.append(renderMarkdown(markdown));
  return root;
}

describe('renderMarkdown', () => {
  it('keeps raw HTML as text', () => {
    const root = html('<img src=x onerror="window.__xss=1"> <script>window.__xss=1</script>');
    expect(root.querySelector('img, script')).toBeNull();
    expect(root.textContent).toContain('<script>window.__xss=1</script>');
  });

  it('opens http(s) and mailto links in a new tab without an opener or referrer', () => {
    const root = html('[site](https://example.com/a?b=1) and mail@example.com');
    const [site, mail] = root.querySelectorAll('a');
    expect(site!.getAttribute('href')).toBe('https://example.com/a?b=1');
    expect(site!.getAttribute('target')).toBe('_blank');
    expect(site!.getAttribute('rel')).toBe('noopener noreferrer');
    expect(site!.getAttribute('title')).toBe('https://example.com/a?b=1');
    expect(mail!.getAttribute('href')).toBe('mailto:mail@example.com');
  });

  it('leaves other links inert', () => {
    for (const target of [
      'javascript:alert(1)',
      'data:text/html,hi',
      'relative/page',
      '#anchor',
      'ftp://x/y',
      'chrome://settings',
    ]) {
      const root = html(`[x](${target}) <${target}>`);
      expect(root.querySelectorAll('a[href]'), target).toHaveLength(0);
      expect(root.textContent).toContain('x');
    }
    expect(html('[page](relative/page)').querySelector('a')!.className).toBe('refused-link');
  });

  it('shows the punycode host of a lookalike domain', () => {
    const link = html('[bank](https://exаmple.com/)').querySelector('a')!;
    expect(link.getAttribute('title')).toBe('https://xn--exmple-4nf.com/');
  });

  it('turns images into links instead of loading them', () => {
    const root = html('![tracking pixel](https://tracker.example/p.gif?data=secret)');
    expect(root.querySelector('img')).toBeNull();
    const link = root.querySelector('a.image-link')!;
    expect(link.textContent).toBe('Image: tracking pixel');
    expect(link.getAttribute('href')).toBe('https://tracker.example/p.gif?data=secret');
  });

  it('highlights known languages and wraps code with a copy button', () => {
    const root = html('```python\ndef f():\n    return 1\n```');
    const block = root.querySelector('.code-block')!;
    expect(block.querySelector('.code-lang')!.textContent).toBe('python');
    expect(block.querySelector('button.copy-code')!.getAttribute('aria-label')).toBe('Copy python code');
    expect(block.querySelector('pre code .hljs-keyword')!.textContent).toBe('def');
    expect(block.querySelector('pre code')!.textContent).toBe('def f():\n    return 1\n');
  });

  it('leaves unknown languages plain and escaped', () => {
    const code = html('```nosuchlang\n<b>bold?</b>\n```').querySelector('pre code')!;
    expect(code.children).toHaveLength(0);
    expect(code.textContent).toBe('<b>bold?</b>\n');
  });

  it('aligns table cells with classes, never style attributes, inside a scrollable region', () => {
    const root = html('| a | b |\n|:-:|--:|\n| 1 | 2 |');
    expect(root.querySelector('.table-wrap[role=region] > table')).not.toBeNull();
    expect(root.querySelector('[style]')).toBeNull();
    expect(root.querySelector('th')!.className).toBe('align-center');
    expect(root.querySelectorAll('td')[1]!.className).toBe('align-right');
  });

  it('keeps line breaks of chat text', () => {
    expect(html('one\ntwo').querySelector('p')!.innerHTML).toBe('one<br>\ntwo');
  });

  it('leaves no whitespace text between blocks', () => {
    const root = html('para\n\n- a\n- b\n');
    expect([...root.childNodes].every((node) => node.nodeType === Node.ELEMENT_NODE)).toBe(true);
  });
});

describe('openableHref', () => {
  it('accepts only absolute http, https and mailto', () => {
    expect(openableHref('https://a.example/')?.href).toBe('https://a.example/');
    expect(openableHref('mailto:x@y.z')?.protocol).toBe('mailto:');
    expect(openableHref('JAVASCRIPT:alert(1)')).toBeUndefined();
    expect(openableHref(' javascript:alert(1)')).toBeUndefined();
    expect(openableHref('/relative')).toBeUndefined();
    expect(openableHref('blob:https://a.example/x')).toBeUndefined();
  });
});
