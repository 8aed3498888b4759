// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { sanitizeToFragment } from './sanitize';

function clean(html: string): HTMLElement {
  const root = document.createElement('div');
  root.append(sanitizeToFragment(html));
  return root;
}

describe('sanitizeToFragment', () => {
  it('keeps what the renderer writes, and makes links open safely elsewhere', () => {
    const fragment = sanitizeToFragment(
      '<h2>Plan</h2><p>One <em>two</em> <a href="https://example.com/x">three</a></p>' +
        '<table><thead><tr><th class="align-left">A</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>' +
        '<pre><code class="language-js"><span class="hljs-keyword">const</span> x</code></pre>',
    );
    const root = document.createElement('div');
    root.append(fragment);
    expect(root.innerHTML).toBe(
      '<h2>Plan</h2><p>One <em>two</em> <a href="https://example.com/x" target="_blank" rel="noopener noreferrer" ' +
        'title="https://example.com/x">three</a></p><table><thead><tr><th class="align-left">A</th></tr></thead>' +
        '<tbody><tr><td>1</td></tr></tbody></table><pre><code class="language-js"><span class="hljs-keyword">' +
        'const</span> x</code></pre>',
    );
  });

  it('removes what could run, load or reach out, and keeps the text', () => {
    const root = clean(
      '<img src=x onerror="window.__xss=1"><script>window.__xss=1</script><iframe src="https://evil.example"></iframe>' +
        '<p onclick="window.__xss=1" style="position:fixed" id="x">kept</p><form action="https://evil.example"><input></form>' +
        '<svg><style><img src=x onerror="window.__xss=1"></style></svg><math><mi xlink:href="javascript:1">m</mi></math>' +
        '<a href="javascript:window.__xss=1">link</a><span class="secret-panel-class hljs-title">t</span>' +
        '<noscript><p title="</noscript><img src=x onerror=window.__xss=1>">n</p></noscript>',
    );
    expect(
      root.querySelector('img, script, iframe, form, input, svg, math, style, noscript, [onclick], [onerror]'),
    ).toBeNull();
    expect(root.querySelector('[style], [id], [xlink\\:href]')).toBeNull();
    expect(root.querySelector('a')!.hasAttribute('href')).toBe(false);
    expect(root.querySelector('a')!.className).toBe('refused-link');
    expect(root.querySelector('span')!.className).toBe('hljs-title');
    expect(root.textContent).toContain('kept');
    expect(root.textContent).toContain('link');
    expect((window as { __xss?: unknown }).__xss).toBeUndefined();
  });

  it('gives every call its own nodes: nothing of one result stays in the next', () => {
    const first = clean('<p>first</p>');
    const second = clean('<p>second</p>');
    expect(first.innerHTML).toBe('<p>first</p>');
    expect(second.innerHTML).toBe('<p>second</p>');
    expect(first.firstChild).not.toBe(second.firstChild);
  });
});
