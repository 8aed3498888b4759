// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatModel } from '../chat-model';
import { TranscriptView } from '../views/transcript';
import { renderMarkdown } from './engine';
import * as highlight from './highlight';
import { highlightedNodes } from './lazy-highlight';
import { sanitizeToFragment } from './sanitize';

vi.mock('./highlight', async (original) => {
  const real = await original<typeof import('./highlight')>();
  return { ...real, highlightCode: vi.fn(real.highlightCode) };
});

/** An IntersectionObserver the test moves: it reports what the test says is near or far. */
class DrivenObserver {
  static all: DrivenObserver[] = [];
  readonly targets = new Set<Element>();
  constructor(
    readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit,
  ) {
    DrivenObserver.all.push(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  unobserve(target: Element) {
    this.targets.delete(target);
  }
  disconnect() {
    this.targets.clear();
  }
  report(target: Element | Element[], isIntersecting: boolean) {
    const targets = Array.isArray(target) ? target : [target];
    if (!targets.every((one) => this.targets.has(one))) throw new Error('target not observed');
    const entries = targets.map((one) => ({ target: one, isIntersecting }) as unknown as IntersectionObserverEntry);
    this.callback(entries, this as unknown as IntersectionObserver);
  }
}
vi.stubGlobal('IntersectionObserver', DrivenObserver);
Element.prototype.scrollIntoView = () => undefined;

/** The highlighter's two observers: the one that highlights, and the one that lets go again. */
function observers(): { near: DrivenObserver; far: DrivenObserver } {
  const [near, far] = DrivenObserver.all.filter((observer) => observer.options.scrollMargin);
  if (!near || !far) throw new Error('the highlighter made no observers');
  return { near, far };
}

const SOURCE = 'def f(x):\n    return x < 1 and "<b>"\n';
const FENCE = '```python\n' + SOURCE + '```';

function block(markdown = FENCE): HTMLElement {
  const root = document.createElement('div');
  root.append(renderMarkdown(markdown));
  document.body.replaceChildren(root);
  return root.querySelector<HTMLElement>('.code-block')!;
}

const code = (element: HTMLElement) => element.querySelector('pre code')!;

afterEach(() => {
  document.body.replaceChildren();
  document.getSelection()?.removeAllRanges();
  vi.mocked(highlight.highlightCode).mockClear();
});

describe('lazy code highlighting', () => {
  it('leaves off-screen code as one text node, highlighting it once it comes near the view', () => {
    const element = block();
    expect(code(element).childNodes).toHaveLength(1);
    expect(code(element).firstChild!.nodeType).toBe(Node.TEXT_NODE);
    expect(element.querySelector('.hljs-keyword')).toBeNull();
    expect(highlight.highlightCode).not.toHaveBeenCalled();

    const { near, far } = observers();
    near.report(element, false);
    far.report(element, true);
    expect(element.querySelector('.hljs-keyword')).toBeNull();

    near.report(element, true);
    expect(code(element).querySelector('.hljs-keyword')!.textContent).toBe('def');
    expect(code(element).textContent).toBe(SOURCE);
    // Coming near again does not highlight twice.
    near.report(element, true);
    expect(highlight.highlightCode).toHaveBeenCalledTimes(1);
  });

  it('returns code far from the view to plain text, unless a selection reaches into it', () => {
    const element = block();
    const { near, far } = observers();
    near.report(element, true);
    const range = document.createRange();
    range.selectNodeContents(code(element).querySelector('.hljs-keyword')!);
    document.getSelection()!.addRange(range);
    far.report(element, false);
    expect(element.querySelector('.hljs-keyword')).not.toBeNull();

    document.getSelection()!.removeAllRanges();
    far.report(element, false);
    expect(element.querySelector('.hljs-keyword')).toBeNull();
    expect(code(element).childNodes).toHaveLength(1);
    expect(code(element).textContent).toBe(SOURCE);
    near.report(element, true);
    expect(element.querySelector('.hljs-keyword')).not.toBeNull();
  });

  it('sanitizes highlighted markup like the rest of the reply when there is no token tree', () => {
    vi.mocked(highlight.highlightCode).mockReturnValueOnce({
      html:
        '<span class="hljs-keyword evil" onclick="window.__xss=1" style="color:red">def</span>' +
        '<img src=x onerror="window.__xss=1"><script>window.__xss=1</script> ' +
        '<a href="javascript:window.__xss=1">f</a>(x):\n    return x &lt; 1 and &quot;&lt;b&gt;&quot;\n',
    });
    const element = block();
    observers().near.report(element, true);
    const keyword = code(element).querySelector('span')!;
    expect(keyword.className).toBe('hljs-keyword');
    expect(keyword.getAttribute('onclick')).toBeNull();
    expect(keyword.getAttribute('style')).toBeNull();
    expect(element.querySelector('img, script, a[href], [onerror]')).toBeNull();
    expect(code(element).textContent).toBe(SOURCE);
  });

  it('keeps code plain when the highlighted text would not read as the code', () => {
    vi.mocked(highlight.highlightCode).mockReturnValueOnce({
      html: '<span class="hljs-keyword">something else</span>',
    });
    const element = block();
    observers().near.report(element, true);
    expect(code(element).childNodes).toHaveLength(1);
    expect(code(element).textContent).toBe(SOURCE);
  });

  it('keeps code plain when the token tree would not read as the code', () => {
    vi.mocked(highlight.highlightCode).mockReturnValueOnce({
      html: '',
      walk: (renderer) => {
        renderer.openNode({ scope: 'keyword' });
        renderer.addText('something else');
        renderer.closeNode({ scope: 'keyword' });
      },
    });
    const element = block();
    observers().near.report(element, true);
    expect(code(element).childNodes).toHaveLength(1);
    expect(code(element).textContent).toBe(SOURCE);
  });

  it('makes from the token tree only spans of allowed classes around text, whatever the scope names', () => {
    vi.mocked(highlight.highlightCode).mockReturnValueOnce({
      html: '',
      walk: (renderer) => {
        renderer.openNode({ scope: 'keyword" onclick="window.__xss=1' });
        renderer.addText('def');
        renderer.closeNode({});
        renderer.openNode({});
        renderer.addText(' f(x):\n    return x < 1 and "<b>"\n');
        renderer.closeNode({});
      },
    });
    const element = block();
    observers().near.report(element, true);
    const spans = code(element).querySelectorAll('span');
    expect(spans).toHaveLength(1);
    expect(spans[0]!.attributes).toHaveLength(0);
    expect(element.querySelector('b, [onclick]')).toBeNull();
    expect(code(element).textContent).toBe(SOURCE);
  });

  it('highlights many blocks that come near at once over several tasks, skipping any that moved away', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // Every reading of the clock costs 3 ms: a task's budget covers a few blocks, never all of them.
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 3));
    try {
      const root = document.createElement('div');
      root.append(renderMarkdown(Array.from({ length: 12 }, () => FENCE).join('\n\n')));
      document.body.replaceChildren(root);
      const blocks = [...root.querySelectorAll<HTMLElement>('.code-block')];
      expect(blocks).toHaveLength(12);
      const highlighted = () => blocks.filter((element) => element.querySelector('.hljs-keyword')).length;
      const { near } = observers();
      near.report(blocks, true);
      expect(highlighted()).toBeGreaterThan(0);
      expect(highlighted()).toBeLessThan(6);
      near.report(blocks[11]!, false);
      vi.runAllTimers();
      expect(highlighted()).toBe(11);
      expect(blocks[11]!.querySelector('.hljs-keyword')).toBeNull();
      expect(blocks.every((element) => code(element).textContent === SOURCE)).toBe(true);
    } finally {
      now.mockRestore();
      vi.useRealTimers();
    }
  });

  it('does not watch code in a language it cannot highlight', () => {
    const element = block('```nosuchlang\n<b>bold?</b>\n```');
    const { near } = observers();
    expect(near.targets.has(element)).toBe(false);
    expect(code(element).textContent).toBe('<b>bold?</b>\n');
  });

  it('stops watching blocks that left the document', () => {
    const { near, far } = observers();
    const kept = block();
    const removed = Array.from({ length: 300 }, () => {
      const root = document.createElement('div');
      root.append(renderMarkdown(FENCE));
      return root.querySelector<HTMLElement>('.code-block')!;
    });
    expect(near.targets.size).toBeGreaterThan(300);
    near.report(kept, true);
    expect(removed.some((element) => near.targets.has(element) || far.targets.has(element))).toBe(false);
    expect(near.targets.has(kept) && far.targets.has(kept)).toBe(true);
  });
});

/** Each node as its kind, class and text, children in order: two renderings compare node for node. */
function shape(nodes: ArrayLike<ChildNode>): unknown[] {
  return Array.from(nodes, (node) =>
    node.nodeType === Node.TEXT_NODE
      ? (node as Text).data
      : { tag: node.nodeName, className: (node as Element).getAttribute('class'), children: shape(node.childNodes) },
  );
}

describe('highlighted nodes from the token tree', () => {
  const samples: Array<[string, string]> = [
    ['python', SOURCE],
    [
      'typescript',
      'export async function f<T extends object>(x: T): Promise<T> {\n  return x ?? (await g(`a${x}`));\n}\n',
    ],
    [
      'xml',
      '<!doctype html>\n<p class="x">a &amp; b</p>\n<script>if (a < b && c) alert("</p>")</script>\n<style>p { color: red }</style>\n',
    ],
    ['bash', 'for f in *.txt; do echo "$f" > "${f%.txt}.md" && cat <<EOF\n$HOME\nEOF\ndone\n'],
    ['markdown', '# Title\n\n```js\nconst a = 1;\n```\n\n- [link](http://example.com) **bold**\n'],
    ['json', '{"a": [1, 2.5e3, true, null], "b": "\\u003c"}\n'],
    ['sql', "SELECT a, COUNT(*) FROM t WHERE b = 'x''y' -- note\nGROUP BY a;\n"],
  ];

  it.each(samples)('%s: the same nodes as the sanitized markup', (language, source) => {
    const result = highlight.highlightCode(source, language)!;
    expect(result.walk).toBeTypeOf('function');
    const fromMarkup = sanitizeToFragment(`<code>${result.html}</code>`).firstChild!.childNodes;
    const fromTree = highlightedNodes(source, language)!;
    expect(fromTree.some((node) => node.nodeType === Node.ELEMENT_NODE)).toBe(true);
    expect(shape(fromTree)).toEqual(shape(fromMarkup));
  });
});

describe('copying a lazily highlighted block', () => {
  let written: string[];
  beforeEach(() => {
    written = [];
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => void written.push(text) },
    });
  });

  it('copies the raw code before and after it is highlighted', async () => {
    const chat = new ChatModel(() => 1_000, 'test');
    const view = new TranscriptView(chat, async () => undefined);
    document.body.replaceChildren(view.element);
    chat.startTurn('a1', 'Demo');
    chat.applyUpdate('a1', 'Demo', {
      sessionUpdate: 'agent_message_chunk',
      content: { type: 'text', text: `Here:\n\n${FENCE}\n` },
    });
    chat.endTurn('a1', { stopReason: 'end_turn' });
    view.flush();
    const element = view.element.querySelector<HTMLElement>('.code-block')!;
    const copy = element.querySelector<HTMLButtonElement>('button.copy-code')!;
    copy.click();
    await vi.waitFor(() => expect(written).toEqual([SOURCE]));
    observers().near.report(element, true);
    expect(element.querySelector('.hljs-keyword')).not.toBeNull();
    copy.click();
    await vi.waitFor(() => expect(written).toEqual([SOURCE, SOURCE]));
  });
});
